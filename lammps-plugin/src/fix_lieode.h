// SPDX-License-Identifier: GPL-2.0-or-later
//
// fix lieode: translation and rotation of finite-size particles by a method of
// the lieode rigid-body catalogue (SPIRAL leapfrog by default), through the
// library's C interface (crates/lieode-capi/include/lieode.h). See
// ../README.md for the syntax, the time levels and the costs.

#ifdef FIX_CLASS
// plugin build: registered by lieode_plugin.cpp, not through this macro
#else

#ifndef LIEODE_FIX_LIEODE_H
#define LIEODE_FIX_LIEODE_H

#include "fix.h"

#include "lieode.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

class FixLieode : public Fix {
 public:
  FixLieode(class LAMMPS *, int, char **);
  ~FixLieode() override;

  int setmask() override;
  void init() override;
  void setup(int) override;
  void initial_integrate(int) override;
  void final_integrate() override;
  void post_run() override;
  void reset_dt() override;
  double compute_scalar() override;

  // per-atom arrays that migrate with their atom
  double memory_usage() override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;

 private:
  // One call's view of the group's particles: LAMMPS's own arrays when every
  // local atom is in the group, else contiguous copies of the group's rows.
  struct Call {
    LieodeParticles particles;
    const double *forces;
    const double *torques;
  };

  LieodeMethod *method;
  LieodeMethodInfo info;
  std::string method_name;
  int inertia_index;    // index of the d2_ custom array, or -1 for 2/5 m r^2
  std::string inertia_name;
  bool dipole;          // turn atom->mu with the body
  bool sync_every;      // synchronise at every step, not only at output steps
  int stride;           // doubles of the method's state per atom (info.state_len)

  // per atom (nmax rows): body-frame angular velocity the method carries, its
  // state row, the dipole in the body frame
  double **omega_body;
  double **state;
  double **dipole_body;

  bool started;        // between setup and post_run
  bool pending_start;  // the method starts at the next initial_integrate
  bool synchronised; // LAMMPS's v, quat hold the synchronised state, the carried ones in saved_*
  double rotational_energy;
  double dt;

  // scratch, grown as needed: the group's local indices, copies of their rows,
  // the synchronised state, the saved carried velocities and rotors
  std::vector<int> members;
  bool all_members;
  std::vector<double> inertia_auto;
  std::vector<double> g_mass, g_inertia, g_x, g_v, g_q, g_w, g_state, g_f, g_t;
  std::vector<double> sync_q, sync_v, sync_w;
  std::vector<double> saved_v, saved_q;

  double time_at(bigint step) const;
  void collect_members();
  Call bind();
  void unbind(const Call &);
  void check(LieodeStatus, const char *, const Call &);
  void start(const Call &);
  double kinetic_energy(const double *, const double *);
  double total_rotational_energy(double);
  void synchronise_for_output();
  void restore_carried();
  void write_lab_views(const double *rotors, const double *omegas);
};

}    // namespace LAMMPS_NS

#endif
#endif
