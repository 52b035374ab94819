"""Quaternion arithmetic for the tests, written here independently of the code under test
(scalar first)."""

import math

import numpy as np


def qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array(
        [
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        ]
    )


def qexp(v):
    """exp of the pure quaternion (0, v): rotation by 2|v| about v."""
    angle = np.linalg.norm(v)
    if angle == 0.0:
        return np.array([1.0, 0.0, 0.0, 0.0])
    return np.concatenate([[math.cos(angle)], math.sin(angle) * np.asarray(v) / angle])


def conj(q):
    """The conjugate (the inverse of a unit rotor)."""
    return np.asarray(q) * np.array([1.0, -1.0, -1.0, -1.0])


def rotate(q, v):
    """``q v q̄`` for a unit rotor ``q`` and a 3-vector ``v``."""
    return qmul(qmul(q, np.concatenate([[0.0], v])), conj(q))[1:]


def rotor_distance(a, b):
    """The rotation angle between two rotors (sign-blind, normalised first), from the relative
    rotor ``ā b`` by atan2 (an arccos of ``|a·b|`` loses half the digits near zero)."""
    a, b = np.asarray(a) / np.linalg.norm(a), np.asarray(b) / np.linalg.norm(b)
    d = qmul(conj(a), b)
    return 2.0 * math.atan2(np.linalg.norm(d[1:]), abs(d[0]))
