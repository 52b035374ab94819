// SPDX-License-Identifier: GPL-2.0-or-later
//
// fix ID group lieode [method NAME] [inertia auto|d2_NAME] [dipole yes|no]
//                     [sync output|every]
//
// Translation and rotation of finite-size particles (atom style bpm/sphere:
// per-atom quat, omega, radius, rmass, torque) by a method of the lieode
// catalogue, called through the library's C interface. The step is the
// method's kick-drift-kick split around LAMMPS's force computation:
//
//   leapfrog form (torque at t_n: SPIRAL leapfrog, SPIRAL, Omelyan, Fincham, ...)
//     initial_integrate  finish(t_n) with the loads of t_n, then prepare(t_n+1):
//                        x_n+1, v_n+1/2, and the torque point of t_n+1 in quat
//     forces             at x_n+1 and that point
//   velocity Verlet form (torque at t_n+1: velocity_verlet, johnson)
//     initial_integrate  prepare(t_n) with F_n: v_n+1/2, x_n+1, the torque point
//     forces             at x_n+1 and that point
//     final_integrate    finish(t_n) with the loads of t_n+1
//
// LAMMPS keeps the orientation (quat), the lab-frame omega and the principal
// inertia (2/5 m r^2, or a d2_ custom array); the fix keeps, per atom and
// migrating with it, the body-frame angular velocity the method carries and
// the method's state row. At every step where LAMMPS writes output (and at
// every step with `sync every`), v, quat, omega (and mu) hold the
// synchronised state q_n, v_n, omega_n; the carried values come back before
// the next step. Every run starts the method anew from LAMMPS's arrays.

#include "fix_lieode.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "output.h"
#include "update.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;

namespace {

constexpr double INERTIA_SPHERE = 0.4;    // I = 2/5 m r^2 for a solid sphere

// body -> lab: out = q (0, w) q*, for q = (s, u) scalar first
void rotate(const double *q, const double *w, double *out)
{
  const double s = q[0], u0 = q[1], u1 = q[2], u2 = q[3];
  // c = u x w + s w;  out = w + 2 u x c
  const double c0 = u1 * w[2] - u2 * w[1] + s * w[0];
  const double c1 = u2 * w[0] - u0 * w[2] + s * w[1];
  const double c2 = u0 * w[1] - u1 * w[0] + s * w[2];
  out[0] = w[0] + 2.0 * (u1 * c2 - u2 * c1);
  out[1] = w[1] + 2.0 * (u2 * c0 - u0 * c2);
  out[2] = w[2] + 2.0 * (u0 * c1 - u1 * c0);
}

// lab -> body: the rotation by the conjugate
void rotate_inverse(const double *q, const double *w, double *out)
{
  const double qc[4] = {q[0], -q[1], -q[2], -q[3]};
  rotate(qc, w, out);
}

template <typename T> T *data_or_null(std::vector<T> &v)
{
  return v.empty() ? nullptr : v.data();
}

}    // namespace

FixLieode::FixLieode(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), method(nullptr), info(), method_name("spiral_leapfrog"),
    inertia_index(-1), dipole(false), sync_every(false), stride(0), omega_body(nullptr),
    state(nullptr), dipole_body(nullptr), started(false), pending_start(false), synchronised(false),
    rotational_energy(0.0), dt(0.0), all_members(true)
{
  int iarg = 3;
  while (iarg < narg) {
    if (iarg + 2 > narg) error->all(FLERR, "fix lieode: keyword {} needs a value", arg[iarg]);
    const std::string key = arg[iarg], value = arg[iarg + 1];
    if (key == "method") {
      method_name = value;
    } else if (key == "inertia") {
      if (value == "auto")
        inertia_name.clear();
      else if (utils::strmatch(value, "^d2_"))
        inertia_name = value.substr(3);
      else
        error->all(FLERR, "fix lieode: inertia must be auto or d2_NAME, not {}", value);
    } else if (key == "dipole") {
      dipole = utils::logical(FLERR, value, false, lmp) == 1;
    } else if (key == "sync") {
      if (value == "output")
        sync_every = false;
      else if (value == "every")
        sync_every = true;
      else
        error->all(FLERR, "fix lieode: sync must be output or every, not {}", value);
    } else {
      error->all(FLERR, "fix lieode: unknown keyword {}", key);
    }
    iarg += 2;
  }

  if (!atom->quat_flag || !atom->omega_flag || !atom->radius_flag || !atom->rmass_flag ||
      !atom->torque_flag)
    error->all(FLERR,
               "fix lieode needs per-atom quat, omega, radius, rmass and torque "
               "(atom style bpm/sphere, alone or in a hybrid style)");
  if (dipole && !atom->mu_flag)
    error->all(FLERR, "fix lieode: dipole yes needs per-atom mu (a dipole atom style)");

  LieodeStatus status = LIEODE_STATUS_OK;
  method = lieode_method_new(method_name.c_str(), &status);
  if (!method)
    error->all(FLERR, "fix lieode: method {}: {}", method_name, lieode_last_error_message());
  if (lieode_method_info(method, &info) != LIEODE_STATUS_OK)
    error->all(FLERR, "fix lieode: {}", lieode_last_error_message());
  if (info.start_evaluations != 1)
    error->all(FLERR,
               "fix lieode: method {} needs {} load evaluations at its start; LAMMPS evaluates "
               "the forces once at setup",
               method_name, info.start_evaluations);
  stride = static_cast<int>(info.state_len);

  time_integrate = 1;
  scalar_flag = 1;
  global_freq = 1;
  extscalar = 1;

  grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  for (int i = 0; i < atom->nlocal; i++) set_arrays(i);
}

FixLieode::~FixLieode()
{
  if (copymode) return;
  atom->delete_callback(id, Atom::GROW);
  memory->destroy(omega_body);
  memory->destroy(state);
  memory->destroy(dipole_body);
  lieode_method_free(method);
}

int FixLieode::setmask()
{
  return INITIAL_INTEGRATE | FINAL_INTEGRATE;
}

void FixLieode::init()
{
  if (utils::strmatch(update->integrate_style, "^respa"))
    error->all(FLERR, "fix lieode does not support run_style respa");
  dt = update->dt;
  inertia_index = -1;
  if (!inertia_name.empty()) {
    int flag = 0, cols = 0;
    inertia_index = atom->find_custom(inertia_name.c_str(), flag, cols);
    if (inertia_index < 0 || flag != 1 || cols != 3)
      error->all(FLERR,
                 "fix lieode: inertia d2_{} must be a per-atom array of 3 doubles "
                 "(fix property/atom d2_{} 3) defined before the run",
                 inertia_name, inertia_name);
  }
}

void FixLieode::reset_dt()
{
  if (started && update->dt != dt)
    error->all(FLERR,
               "fix lieode: the time step changed from {} to {} during a run; the method "
               "carries half steps of the old one (change it between runs)",
               dt, update->dt);
  dt = update->dt;
}

double FixLieode::time_at(bigint step) const
{
  return update->atime + static_cast<double>(step - update->atimestep) * update->dt;
}

// ---------------------------------------------------------------------------
// the run: start at setup, one step across initial and final integrate,
// synchronised state at output steps and at the end

void FixLieode::setup(int /*vflag*/)
{
  if (started) return;
  // LAMMPS's arrays are the initial state, and are what the step-0 output
  // shows; the method starts at the first step, when every fix has added its
  // setup forces (fixes after this one add theirs after this call)
  dt = update->dt;
  collect_members();
  double **quat = atom->quat, **omega = atom->omega, **mu = atom->mu;
  for (const int i : members) {
    rotate_inverse(quat[i], omega[i], omega_body[i]);
    if (dipole) rotate_inverse(quat[i], mu[i], dipole_body[i]);
  }
  double local_energy = 0.0;
  if (!members.empty()) {
    const Call call = bind();
    for (size_t k = 0; k < members.size(); k++)
      local_energy += kinetic_energy(call.particles.inertia + 3 * k, omega_body[members[k]]);
  }
  rotational_energy = total_rotational_energy(local_energy);
  started = true;
  pending_start = true;
  synchronised = false;
}

// the method's start from the initial state with the loads at t_0, then (in
// the leapfrog form) the first step's torque point
void FixLieode::start(const Call &call)
{
  const double t0 = time_at(update->ntimestep - 1);
  check(lieode_start_prepare(method, 0, t0, dt, &call.particles), "lieode_start_prepare", call);
  check(lieode_start_finish(method, 0, t0, dt, &call.particles, call.forces, call.torques,
                            LIEODE_FRAME_LAB),
        "lieode_start_finish", call);
  if (!info.velocity_verlet_form)
    check(lieode_prepare(method, t0, dt, &call.particles, nullptr), "lieode_prepare", call);
}

void FixLieode::initial_integrate(int /*vflag*/)
{
  if (synchronised) restore_carried();
  collect_members();
  if (members.empty()) {
    pending_start = false;
    return;
  }
  const double t = time_at(update->ntimestep - 1);
  Call call = bind();
  if (pending_start) {
    start(call);
    pending_start = false;
  }
  if (info.velocity_verlet_form) {
    check(lieode_prepare(method, t, dt, &call.particles, call.forces), "lieode_prepare", call);
  } else {
    check(lieode_finish(method, t, dt, &call.particles, call.forces, call.torques,
                        LIEODE_FRAME_LAB),
          "lieode_finish", call);
    check(lieode_prepare(method, t + dt, dt, &call.particles, nullptr), "lieode_prepare", call);
  }
  unbind(call);
  write_lab_views(nullptr, nullptr);
}

void FixLieode::final_integrate()
{
  if (info.velocity_verlet_form) {
    // atoms may have changed rank since initial_integrate
    collect_members();
    if (!members.empty()) {
      const double t = time_at(update->ntimestep - 1);
      Call call = bind();
      check(lieode_finish(method, t, dt, &call.particles, call.forces, call.torques,
                          LIEODE_FRAME_LAB),
            "lieode_finish", call);
      unbind(call);
    }
  }
  if (sync_every || update->ntimestep == output->next) synchronise_for_output();
}

void FixLieode::post_run()
{
  if (started && !pending_start && !synchronised) synchronise_for_output();
  started = false;
  pending_start = false;
  synchronised = false;
}

// q_n, v_n, omega_n into LAMMPS's quat, v, omega (and mu) for output, the
// carried velocities and rotors kept for the next step; also the rotational
// kinetic energy 1/2 sum omega_n^T J omega_n
void FixLieode::synchronise_for_output()
{
  collect_members();
  const size_t n = members.size();
  double local_energy = 0.0;
  if (n > 0) {
    sync_q.resize(4 * n);
    sync_v.resize(3 * n);
    sync_w.resize(3 * n);
    saved_q.resize(4 * n);
    saved_v.resize(3 * n);
    Call call = bind();
    check(lieode_synchronise(method, time_at(update->ntimestep), dt, &call.particles,
                             call.forces, call.torques, LIEODE_FRAME_LAB, sync_q.data(),
                             sync_v.data(), sync_w.data()),
          "lieode_synchronise", call);
    double **v = atom->v, **quat = atom->quat;
    for (size_t k = 0; k < n; k++) {
      const int i = members[k];
      memcpy(&saved_v[3 * k], v[i], 3 * sizeof(double));
      memcpy(&saved_q[4 * k], quat[i], 4 * sizeof(double));
      memcpy(v[i], &sync_v[3 * k], 3 * sizeof(double));
      memcpy(quat[i], &sync_q[4 * k], 4 * sizeof(double));
      local_energy += kinetic_energy(call.particles.inertia + 3 * k, &sync_w[3 * k]);
    }
    write_lab_views(sync_q.data(), sync_w.data());
  }
  rotational_energy = total_rotational_energy(local_energy);
  synchronised = true;
}

// 1/2 w^T J w in the units of the call (J divided by ftm2v)
double FixLieode::kinetic_energy(const double *moments, const double *w)
{
  return 0.5 * (moments[0] * w[0] * w[0] + moments[1] * w[1] * w[1] + moments[2] * w[2] * w[2]);
}

// the group's sum over the ranks, in LAMMPS's energy units
double FixLieode::total_rotational_energy(double local)
{
  local *= force->ftm2v * force->mvv2e;
  double total = 0.0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, world);
  return total;
}

void FixLieode::restore_carried()
{
  double **v = atom->v, **quat = atom->quat;
  for (size_t k = 0; k < members.size(); k++) {
    const int i = members[k];
    memcpy(v[i], &saved_v[3 * k], 3 * sizeof(double));
    memcpy(quat[i], &saved_q[4 * k], 4 * sizeof(double));
  }
  synchronised = false;
}

// LAMMPS's lab-frame omega (and mu) of every member from the rotors and
// body-frame angular velocities given (row k for member k), or from quat and
// the carried omega_body when null
void FixLieode::write_lab_views(const double *rotors, const double *omegas)
{
  double **quat = atom->quat, **omega = atom->omega, **mu = atom->mu;
  for (size_t k = 0; k < members.size(); k++) {
    const int i = members[k];
    const double *q = rotors ? rotors + 4 * k : quat[i];
    const double *w = omegas ? omegas + 3 * k : omega_body[i];
    rotate(q, w, omega[i]);
    if (dipole) rotate(q, dipole_body[i], mu[i]);
  }
}

// ---------------------------------------------------------------------------
// the arrays of one call

void FixLieode::collect_members()
{
  const int nlocal = atom->nlocal;
  const int *mask = atom->mask;
  members.clear();
  for (int i = 0; i < nlocal; i++)
    if (mask[i] & groupbit) members.push_back(i);
  all_members = static_cast<int>(members.size()) == nlocal;
}

FixLieode::Call FixLieode::bind()
{
  const size_t n = members.size();
  const double scale = 1.0 / force->ftm2v;    // m and J in units where dv/dt = F/m
  const bool direct = all_members;
  double *rmass = atom->rmass, *radius = atom->radius;
  double **custom = inertia_index >= 0 ? atom->darray[inertia_index] : nullptr;

  Call call;
  LieodeParticles &p = call.particles;
  p.n = n;

  if (direct && scale == 1.0) {
    p.mass = rmass;
  } else {
    g_mass.resize(n);
    for (size_t k = 0; k < n; k++) g_mass[k] = scale * rmass[members[k]];
    p.mass = g_mass.data();
  }
  if (custom && direct && scale == 1.0) {
    p.inertia = custom[0];
  } else {
    std::vector<double> &in = custom ? g_inertia : inertia_auto;
    in.resize(3 * n);
    for (size_t k = 0; k < n; k++) {
      const int i = members[k];
      if (custom) {
        for (int c = 0; c < 3; c++) in[3 * k + c] = scale * custom[i][c];
      } else {
        const double moment = scale * INERTIA_SPHERE * rmass[i] * radius[i] * radius[i];
        in[3 * k] = in[3 * k + 1] = in[3 * k + 2] = moment;
      }
    }
    p.inertia = in.data();
  }

  double **x = atom->x, **v = atom->v, **quat = atom->quat, **f = atom->f;
  double **torque = atom->torque;
  if (direct) {
    p.positions = x[0];
    p.velocities = v[0];
    p.rotors = quat[0];
    p.omegas = omega_body[0];
    p.state = stride > 0 ? state[0] : nullptr;
    call.forces = f[0];
    call.torques = torque[0];
    return call;
  }
  auto gather = [&](std::vector<double> &buf, double **src, int width) {
    buf.resize(width * n);
    for (size_t k = 0; k < n; k++) memcpy(&buf[width * k], src[members[k]], width * sizeof(double));
    return buf.data();
  };
  p.positions = gather(g_x, x, 3);
  p.velocities = gather(g_v, v, 3);
  p.rotors = gather(g_q, quat, 4);
  p.omegas = gather(g_w, omega_body, 3);
  p.state = stride > 0 ? gather(g_state, state, stride) : nullptr;
  call.forces = gather(g_f, f, 3);
  call.torques = gather(g_t, torque, 3);
  return call;
}

void FixLieode::unbind(const Call &call)
{
  if (all_members) return;
  const LieodeParticles &p = call.particles;
  auto scatter = [&](const double *buf, double **dst, int width) {
    for (size_t k = 0; k < p.n; k++) memcpy(dst[members[k]], buf + width * k, width * sizeof(double));
  };
  scatter(p.positions, atom->x, 3);
  scatter(p.velocities, atom->v, 3);
  scatter(p.rotors, atom->quat, 4);
  scatter(p.omegas, omega_body, 3);
  if (stride > 0) scatter(p.state, state, stride);
}

// a failed call stops the run on every rank, with the library's message and
// the LAMMPS atom ID of the particle it names ("particle k")
void FixLieode::check(LieodeStatus status, const char *function, const Call &call)
{
  if (status == LIEODE_STATUS_OK) return;
  const std::string message = lieode_last_error_message();
  std::string atom_note;
  const size_t at = message.find("particle ");
  if (at != std::string::npos) {
    char *end = nullptr;
    const char *digits = message.c_str() + at + 9;
    const unsigned long k = std::strtoul(digits, &end, 10);
    if (end != digits && k < call.particles.n)
      atom_note = fmt::format(" (particle {} is atom ID {})", k, atom->tag[members[k]]);
  }
  error->one(FLERR, "fix {} lieode ({}): {} failed at step {} on rank {}: {}{}", id,
             method_name, function, update->ntimestep, comm->me, message, atom_note);
}

// ---------------------------------------------------------------------------
// per-atom arrays: LAMMPS calls these as atoms are allocated, sorted, deleted
// and sent to another rank (Atom::GROW callback registered above)

double FixLieode::memory_usage()
{
  const int per_atom = 3 + stride + (dipole ? 3 : 0);
  return static_cast<double>(atom->nmax) * per_atom * sizeof(double);
}

void FixLieode::grow_arrays(int nmax)
{
  memory->grow(omega_body, nmax, 3, "lieode:omega_body");
  if (stride > 0) memory->grow(state, nmax, stride, "lieode:state");
  if (dipole) memory->grow(dipole_body, nmax, 3, "lieode:dipole_body");
}

void FixLieode::copy_arrays(int i, int j, int /*delflag*/)
{
  memcpy(omega_body[j], omega_body[i], 3 * sizeof(double));
  if (stride > 0) memcpy(state[j], state[i], stride * sizeof(double));
  if (dipole) memcpy(dipole_body[j], dipole_body[i], 3 * sizeof(double));
}

// an atom created during a run has no carried state: NaN, which the library
// reports (naming the particle) at its next step instead of integrating garbage
void FixLieode::set_arrays(int i)
{
  const double fill = started ? std::nan("") : 0.0;
  for (int c = 0; c < 3; c++) omega_body[i][c] = fill;
  for (int c = 0; c < stride; c++) state[i][c] = fill;
  if (dipole)
    for (int c = 0; c < 3; c++) dipole_body[i][c] = fill;
}

int FixLieode::pack_exchange(int i, double *buf)
{
  int m = 0;
  for (int c = 0; c < 3; c++) buf[m++] = omega_body[i][c];
  for (int c = 0; c < stride; c++) buf[m++] = state[i][c];
  if (dipole)
    for (int c = 0; c < 3; c++) buf[m++] = dipole_body[i][c];
  return m;
}

int FixLieode::unpack_exchange(int nlocal, double *buf)
{
  int m = 0;
  for (int c = 0; c < 3; c++) omega_body[nlocal][c] = buf[m++];
  for (int c = 0; c < stride; c++) state[nlocal][c] = buf[m++];
  if (dipole)
    for (int c = 0; c < 3; c++) dipole_body[nlocal][c] = buf[m++];
  return m;
}

double FixLieode::compute_scalar()
{
  return rotational_energy;
}
