/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat's version and the versions of the libraries it runs with.
 * The version is git describe's at build time (meson's vcs_tag over
 * version.c.in, scripts/version.sh), a tarball's .tarball-version, or the
 * project version. meson.build includes this header in every file
 * (-include), so AL_VERSION is there as it was as a -D.
 */
#ifndef AL_CORE_VERSION_H
#define AL_CORE_VERSION_H

extern const char al_version[];
#ifndef AL_VERSION
#define AL_VERSION al_version
#endif

/*
 * One library audiolat was built with, for --version: a module that links
 * one keeps a NULL-terminated table of these (al_backend_libs in
 * backend/registry.c, al_store_libs in store/store.c); a backend adds its
 * row there. version() gives the version of the library loaded at run
 * time, never NULL.
 */
struct al_lib_version {
	const char *name;
	const char *(*version)(void);
};

#endif
