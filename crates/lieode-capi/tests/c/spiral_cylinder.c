/* SPDX-License-Identifier: MIT OR Apache-2.0
 *
 * The SPIRAL paper's cylinder benchmark (a steel cylinder under the constant body torque
 * (0.5, 0, 0), omega_0 = (0.3, -0.9, 0.6), q_0 = 1; lieode::problems::cylinder) driven through
 * the C interface as a host code would drive it: one particle in its own arrays, the loads
 * evaluated by the host between lieode_prepare and lieode_finish.
 *
 * usage: spiral_cylinder METHOD DT STEPS MASS I1 I2 I3
 * prints the synchronised rotor and angular velocity at t = STEPS * DT as hex floats:
 *   q <w> <x> <y> <z>
 *   omega <x> <y> <z>
 *   state_len <n>
 */
#include <stdio.h>
#include <stdlib.h>

#include "lieode.h"

static int check(LieodeStatus status, const char *call) {
    if (status != LIEODE_STATUS_OK) {
        fprintf(stderr, "%s failed (%d): %s\n", call, (int)status, lieode_last_error_message());
        return 1;
    }
    return 0;
}

/* The host's loads at its own arrays: no force, the constant body-frame torque. */
static void loads(double force[3], double torque[3]) {
    force[0] = 0.0;
    force[1] = 0.0;
    force[2] = 0.0;
    torque[0] = 0.5;
    torque[1] = 0.0;
    torque[2] = 0.0;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: %s METHOD DT STEPS MASS I1 I2 I3\n", argv[0]);
        return 2;
    }
    const double dt = strtod(argv[2], NULL);
    const long steps = strtol(argv[3], NULL, 10);
    const double mass = strtod(argv[4], NULL);
    const double inertia[3] = {strtod(argv[5], NULL), strtod(argv[6], NULL),
                               strtod(argv[7], NULL)};

    LieodeStatus status;
    LieodeMethod *method = lieode_method_new(argv[1], &status);
    if (method == NULL) {
        return check(status, "lieode_method_new");
    }
    LieodeMethodInfo info;
    if (check(lieode_method_info(method, &info), "lieode_method_info")) {
        return 1;
    }
    /* The same method with its default policy asked for by name: the same info. */
    LieodeMethod *chosen =
        lieode_method_new_with_renormalisation(argv[1], LIEODE_RENORMALISE_DEFAULT, &status);
    if (chosen == NULL) {
        return check(status, "lieode_method_new_with_renormalisation");
    }
    LieodeMethodInfo chosen_info;
    if (check(lieode_method_info(chosen, &chosen_info), "lieode_method_info")) {
        return 1;
    }
    lieode_method_free(chosen);
    if (chosen_info.renormalises != info.renormalises ||
        chosen_info.state_len != info.state_len) {
        fprintf(stderr, "LIEODE_RENORMALISE_DEFAULT differs from lieode_method_new\n");
        return 1;
    }

    double position[3] = {0.0, 0.0, 0.0};
    double velocity[3] = {0.0, 0.0, 0.0};
    double rotor[4] = {1.0, 0.0, 0.0, 0.0};
    double omega[3] = {0.3, -0.9, 0.6};
    double *state = calloc(info.state_len > 0 ? info.state_len : 1, sizeof(double));
    double force[3], torque[3];
    const LieodeParticles particles = {1, &mass, inertia, position, velocity,
                                       rotor, omega, state};

    int failed = 0;
    for (size_t stage = 0; stage < info.start_evaluations && !failed; ++stage) {
        failed |= check(lieode_start_prepare(method, stage, 0.0, dt, &particles),
                        "lieode_start_prepare");
        loads(force, torque);
        failed |= check(lieode_start_finish(method, stage, 0.0, dt, &particles, force, torque,
                                            LIEODE_FRAME_BODY),
                        "lieode_start_finish");
    }
    for (long n = 0; n < steps && !failed; ++n) {
        const double t = (double)n * dt;
        failed |= check(lieode_prepare(method, t, dt, &particles, force), "lieode_prepare");
        loads(force, torque);
        failed |= check(lieode_finish(method, t, dt, &particles, force, torque,
                                      LIEODE_FRAME_BODY),
                        "lieode_finish");
    }

    double q_n[4], v_n[3], omega_n[3];
    if (!failed) {
        const double t = (double)steps * dt;
        if (info.velocity_verlet_form) {
            failed |= check(lieode_synchronise(method, t, dt, &particles, NULL, NULL,
                                               LIEODE_FRAME_BODY, q_n, v_n, omega_n),
                            "lieode_synchronise");
        } else {
            /* The leapfrog form synchronises with the loads at the point of the next step. */
            failed |= check(lieode_prepare(method, t, dt, &particles, force), "lieode_prepare");
            loads(force, torque);
            failed |= check(lieode_synchronise(method, t, dt, &particles, force, torque,
                                               LIEODE_FRAME_BODY, q_n, v_n, omega_n),
                            "lieode_synchronise");
        }
    }
    if (!failed) {
        printf("q %a %a %a %a\n", q_n[0], q_n[1], q_n[2], q_n[3]);
        printf("omega %a %a %a\n", omega_n[0], omega_n[1], omega_n[2]);
        printf("state_len %zu\n", info.state_len);
    }
    free(state);
    lieode_method_free(method);
    return failed;
}
