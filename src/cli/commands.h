/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One entry point per subcommand (cmd-<name>.c). */
#ifndef AL_CLI_COMMANDS_H
#define AL_CLI_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_roundtrip(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_midi(int argc, char **argv);
int cmd_monitor(int argc, char **argv);

#endif
