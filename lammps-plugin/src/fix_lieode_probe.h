// SPDX-License-Identifier: GPL-2.0-or-later
//
// fix lieode/probe: a small, complete rigid-sphere integrator that exercises
// everything the lieode LAMMPS fix will need from LAMMPS (see ../README.md):
// translation and rotation of finite-size spheres in atom style bpm/sphere
// (which carries a per-atom orientation quaternion), and a per-atom array of
// K doubles that travels with its atom between MPI ranks.

#ifdef FIX_CLASS
// plugin build: registered by lieode_plugin.cpp, not through this macro
#else

#ifndef LIEODE_FIX_LIEODE_PROBE_H
#define LIEODE_FIX_LIEODE_PROBE_H

#include "fix.h"

namespace LAMMPS_NS {

class FixLieodeProbe : public Fix {
 public:
  FixLieodeProbe(class LAMMPS *, int, char **);
  ~FixLieodeProbe() override;

  int setmask() override;
  void init() override;
  void initial_integrate(int) override;
  void final_integrate() override;
  void reset_dt() override;

  // per-atom state that migrates with its atom
  double memory_usage() override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;

 private:
  int nstate;       // K: doubles of per-atom state
  double **state;   // nmax x K, owned atoms only
  double dtv, dtf;  // full step for positions, half step (with ftm2v) for kicks

  void init_state_row(int);
};

}    // namespace LAMMPS_NS

#endif
#endif
