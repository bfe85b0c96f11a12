/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One entry point per subcommand (cmd-<name>.c). */
#ifndef AL_CLI_COMMANDS_H
#define AL_CLI_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_load(int argc, char **argv);

#endif
