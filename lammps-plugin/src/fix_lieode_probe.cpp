// SPDX-License-Identifier: GPL-2.0-or-later
//
// fix ID group lieode/probe [state K]
//
// Velocity Verlet for the centre of mass, and for the spin of a solid sphere
// (I = 2/5 m r^2): half kick of v and omega, drift of x, and the orientation
// moved by the exact rotor of the half-kicked lab-frame spin held constant over
// the step,  q <- exp(dt/2 (0, omega)) q,  without renormalisation; second half
// kick after the forces. A torque-free sphere therefore turns by the exact
// rotor, and |q| stays 1 up to round-off.
//
// Per-atom state: K doubles (default 8, 2 <= K <= 1024) per owned atom,
// readable as f_ID[1..K]:
//   [1] accumulated rotation angle  sum |omega| dt
//   [2] number of steps this atom was integrated
//   [3..K] marks 1024*tag + (column-1), written once, never changed: they show
//          that the rows travelled with their atoms between ranks.
// The rows are also written to restart files: after read_restart, the same
// `fix ID group lieode/probe state K` (same ID, plugin loaded) takes them back.

#include "fix_lieode_probe.h"

#include "atom.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "update.h"

#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;

namespace {
constexpr double INERTIA_SPHERE = 0.4;    // I = 2/5 m r^2 for a solid sphere
constexpr int MAX_STATE = 1024;
}    // namespace

FixLieodeProbe::FixLieodeProbe(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), nstate(8), state(nullptr), dtv(0.0), dtf(0.0)
{
  int iarg = 3;
  while (iarg < narg) {
    if (strcmp(arg[iarg], "state") == 0) {
      if (iarg + 2 > narg) error->all(FLERR, "fix lieode/probe: state needs a value");
      nstate = utils::inumeric(FLERR, arg[iarg + 1], false, lmp);
      if (nstate < 2 || nstate > MAX_STATE)
        error->all(FLERR, "fix lieode/probe: state K must lie in 2..{}", MAX_STATE);
      iarg += 2;
    } else {
      error->all(FLERR, "fix lieode/probe: unknown keyword {}", arg[iarg]);
    }
  }

  if (!atom->quat_flag || !atom->omega_flag || !atom->radius_flag || !atom->rmass_flag ||
      !atom->torque_flag)
    error->all(FLERR,
               "fix lieode/probe needs per-atom quat, omega, radius, rmass and torque "
               "(atom style bpm/sphere)");

  time_integrate = 1;
  create_attribute = 1;
  peratom_flag = 1;
  size_peratom_cols = nstate;
  peratom_freq = 1;

  restart_peratom = 1;

  grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
  for (int i = 0; i < atom->nlocal; i++) init_state_row(i);
}

FixLieodeProbe::~FixLieodeProbe()
{
  if (copymode) return;
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
  memory->destroy(state);
}

int FixLieodeProbe::setmask()
{
  return INITIAL_INTEGRATE | FINAL_INTEGRATE;
}

void FixLieodeProbe::init()
{
  reset_dt();
}

void FixLieodeProbe::reset_dt()
{
  dtv = update->dt;
  dtf = 0.5 * update->dt * force->ftm2v;
}

void FixLieodeProbe::init_state_row(int i)
{
  double *row = state[i];
  row[0] = 0.0;
  row[1] = 0.0;
  const double base = 1024.0 * static_cast<double>(atom->tag[i]);
  for (int j = 2; j < nstate; j++) row[j] = base + j;
}

void FixLieodeProbe::initial_integrate(int /*vflag*/)
{
  double **x = atom->x, **v = atom->v, **f = atom->f;
  double **omega = atom->omega, **torque = atom->torque, **quat = atom->quat;
  double *radius = atom->radius, *rmass = atom->rmass;
  int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  const double dtfrot = dtf / INERTIA_SPHERE;

  for (int i = 0; i < nlocal; i++) {
    if (!(mask[i] & groupbit)) continue;
    const double dtfm = dtf / rmass[i];
    for (int d = 0; d < 3; d++) {
      v[i][d] += dtfm * f[i][d];
      x[i][d] += dtv * v[i][d];
    }
    if (radius[i] <= 0.0) continue;    // a point particle has no spin to integrate
    const double dtirot = dtfrot / (radius[i] * radius[i] * rmass[i]);
    double *w = omega[i];
    for (int d = 0; d < 3; d++) w[d] += dtirot * torque[i][d];

    // rotor p = (cos(theta/2), s w) with theta = |w| dt and s = sin(theta/2)/|w|
    const double wn = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    const double half = 0.5 * wn * dtv;
    const double c = std::cos(half);
    double s;
    if (half < 1.0e-4) {
      const double h2 = half * half;
      s = 0.5 * dtv * (1.0 - h2 / 6.0 * (1.0 - h2 / 20.0));
    } else {
      s = std::sin(half) / wn;
    }
    // q <- p q  (lab-frame spin multiplies from the left)
    double *q = quat[i];
    const double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
    const double a1 = s * w[0], a2 = s * w[1], a3 = s * w[2];
    q[0] = c * q0 - (a1 * q1 + a2 * q2 + a3 * q3);
    q[1] = c * q1 + q0 * a1 + (a2 * q3 - a3 * q2);
    q[2] = c * q2 + q0 * a2 + (a3 * q1 - a1 * q3);
    q[3] = c * q3 + q0 * a3 + (a1 * q2 - a2 * q1);

    state[i][0] += wn * dtv;
    state[i][1] += 1.0;
  }
}

void FixLieodeProbe::final_integrate()
{
  double **v = atom->v, **f = atom->f;
  double **omega = atom->omega, **torque = atom->torque;
  double *radius = atom->radius, *rmass = atom->rmass;
  int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  const double dtfrot = dtf / INERTIA_SPHERE;

  for (int i = 0; i < nlocal; i++) {
    if (!(mask[i] & groupbit)) continue;
    const double dtfm = dtf / rmass[i];
    for (int d = 0; d < 3; d++) v[i][d] += dtfm * f[i][d];
    if (radius[i] <= 0.0) continue;
    const double dtirot = dtfrot / (radius[i] * radius[i] * rmass[i]);
    for (int d = 0; d < 3; d++) omega[i][d] += dtirot * torque[i][d];
  }
}

// ---------------------------------------------------------------------------
// per-atom state: LAMMPS calls these as atoms are allocated, sorted, deleted
// and sent to another rank (Atom::GROW callback registered above)

double FixLieodeProbe::memory_usage()
{
  return static_cast<double>(atom->nmax) * nstate * sizeof(double);
}

void FixLieodeProbe::grow_arrays(int nmax)
{
  memory->grow(state, nmax, nstate, "lieode/probe:state");
  array_atom = state;
}

void FixLieodeProbe::copy_arrays(int i, int j, int /*delflag*/)
{
  memcpy(state[j], state[i], sizeof(double) * nstate);
}

void FixLieodeProbe::set_arrays(int i)
{
  init_state_row(i);
}

int FixLieodeProbe::pack_exchange(int i, double *buf)
{
  memcpy(buf, state[i], sizeof(double) * nstate);
  return nstate;
}

int FixLieodeProbe::unpack_exchange(int nlocal, double *buf)
{
  memcpy(state[nlocal], buf, sizeof(double) * nstate);
  return nstate;
}

// restart files: per atom, a count (K + 1) then the K values; LAMMPS keeps the
// chunks of all fixes in atom->extra and hands the nth chunk back to the fix
// of the same ID and style defined after read_restart

int FixLieodeProbe::pack_restart(int i, double *buf)
{
  buf[0] = nstate + 1;
  memcpy(buf + 1, state[i], sizeof(double) * nstate);
  return nstate + 1;
}

void FixLieodeProbe::unpack_restart(int nlocal, int nth)
{
  double **extra = atom->extra;
  int m = 0;
  for (int k = 0; k < nth; k++) m += static_cast<int>(extra[nlocal][m]);
  if (static_cast<int>(extra[nlocal][m]) != nstate + 1)
    error->one(FLERR, "fix lieode/probe: restart file holds {} state values per atom, not {}",
               static_cast<int>(extra[nlocal][m]) - 1, nstate);
  memcpy(state[nlocal], &extra[nlocal][m + 1], sizeof(double) * nstate);
}

int FixLieodeProbe::size_restart(int /*nlocal*/)
{
  return nstate + 1;
}

int FixLieodeProbe::maxsize_restart()
{
  return nstate + 1;
}
