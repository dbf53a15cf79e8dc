"""The statistics of the design measures: intervals at 95 % (Wilson's for a
proportion, mean ± 1.96·SE, Newcombe's for a difference of proportions, a
bootstrap for Balance, a χ² test of even wins) and the exact running sums
(``Sums``, ``Ratio``) that totals of games are kept in."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction


Z = 1.959964


# -- statistics ---------------------------------------------------------------------------
def wilson(k: float, n: int, z: float = Z) -> tuple[float, float, float]:
    """(p, low, high): the Wilson score interval of k successes in n."""
    if n <= 0:
        return (float("nan"),) * 3
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(xs: list[float], z: float = Z) -> tuple[float, float, float, float]:
    """(mean, low, high, se): mean ± z·SE."""
    n = len(xs)
    if n == 0:
        return (float("nan"),) * 4
    m = sum(xs) / n
    if n == 1:
        return m, m, m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    se = math.sqrt(var / n)
    return m, m - z * se, m + z * se, se


def newcombe(k1, n1, k2, n2) -> tuple[float, float, float]:
    """(d, low, high): p2 - p1 with Newcombe's hybrid score interval."""
    p1, l1, u1 = wilson(k1, n1)
    p2, l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def mean_diff(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """(d, low, high): mean(b) - mean(a) ± 1.96·sqrt(SE_a² + SE_b²)."""
    ma, _, _, sa = mean_ci(a)
    mb, _, _, sb = mean_ci(b)
    d = mb - ma
    h = Z * math.sqrt(sa * sa + sb * sb)
    return d, d - h, d + h


# -- exact running totals -------------------------------------------------------------------
class Sums:
    """Σx, Σx² (and n) of a per-game quantity, exact. Whole numbers are summed
    as integers and fractions as integer numerators per denominator (``add``
    costs no fraction arithmetic); ``s`` and ``ss`` are the exact totals."""

    __slots__ = ("n", "_i", "_ii", "_f", "_ff")

    def __init__(self):
        self.n = self._i = self._ii = 0
        self._f: dict = {}  # denominator -> Σ numerators
        self._ff: dict = {}  # denominator² -> Σ numerators²

    def add(self, x) -> None:
        self.n += 1
        if type(x) is int:
            self._i += x
            self._ii += x * x
        else:
            if not isinstance(x, Fraction):
                x = Fraction(x)
            self._add_part(x.numerator, x.denominator)

    def add_ratio(self, num: int, den: int) -> None:
        """``add(Fraction(num, den))``, without making the fraction."""
        self.n += 1
        self._add_part(num, den)

    def _add_part(self, num: int, den: int) -> None:
        f, ff = self._f, self._ff
        f[den] = f.get(den, 0) + num
        d2 = den * den
        ff[d2] = ff.get(d2, 0) + num * num

    @property
    def s(self) -> Fraction:
        return self._i + sum((Fraction(v, d) for d, v in self._f.items()), Fraction(0))

    @property
    def ss(self) -> Fraction:
        return self._ii + sum((Fraction(v, d) for d, v in self._ff.items()), Fraction(0))

    def merge(self, o: "Sums") -> None:
        self.n += o.n
        self._i += o._i
        self._ii += o._ii
        for mine, theirs in ((self._f, o._f), (self._ff, o._ff)):
            for d, v in theirs.items():
                mine[d] = mine.get(d, 0) + v

    def ci(self) -> dict:
        """mean ± 1.96·SE over the games."""
        n = self.n
        if n == 0:
            return {"mean": None, "low": None, "high": None, "se": None, "n": 0}
        m = self.s / n
        var = (self.ss - n * m * m) / (n - 1) if n > 1 else Fraction(0)
        se = math.sqrt(max(0.0, float(var)) / n)
        return {"mean": float(m), "low": float(m) - Z * se, "high": float(m) + Z * se, "se": se, "n": n}


class Ratio:
    """A per-hand mean or share as a ratio of per-game totals Σx_g / Σh_g, its
    SE cluster-robust: each game is one cluster of hands (the linearised
    variance of a ratio estimator). Exact integer totals."""

    __slots__ = ("g", "x", "h", "xx", "hh", "xh")

    def __init__(self):
        self.g = self.x = self.h = self.xx = self.hh = self.xh = 0

    def add(self, x: int, h: int) -> None:
        self.g += 1
        self.x += x
        self.h += h
        self.xx += x * x
        self.hh += h * h
        self.xh += x * h

    def merge(self, o: "Ratio") -> None:
        for k in self.__slots__:
            setattr(self, k, getattr(self, k) + getattr(o, k))

    def value(self):
        if not self.h:
            return None, None
        r = Fraction(self.x, self.h)
        g = self.g
        if g < 2:
            return r, 0.0
        # Σ (x_g - r h_g)² = Σx² - 2rΣxh + r²Σh²
        resid = self.xx - 2 * r * self.xh + r * r * self.hh
        var = Fraction(g, g - 1) * resid / (self.h * self.h)
        return r, math.sqrt(max(0.0, float(var)))

    def ci(self) -> dict:
        r, se = self.value()
        if r is None:
            return {"mean": None, "low": None, "high": None, "se": None, "n": 0, "games": self.g}
        m = float(r)
        return {"mean": m, "low": m - Z * se, "high": m + Z * se, "se": se, "n": self.h, "games": self.g}

    def share(self) -> dict:
        """As a proportion: Wilson's interval on the effective number of hands
        (the hands divided by the design effect of their clustering)."""
        r, se = self.value()
        if r is None:
            return {"p": None, "low": None, "high": None, "n": 0, "games": self.g}
        p = float(r)
        neff = self.h
        if se and 0 < p < 1:
            neff = min(self.h, max(1.0, p * (1 - p) / (se * se)))
        _, lo, hi = wilson(p * neff, neff)
        return {"p": p, "low": lo, "high": hi, "n": self.h, "effective_n": round(neff, 1), "games": self.g}


BOOTSTRAP = 2000  # resamplings of the games for the interval of Balance


def balance_interval(outcomes: Counter, n: int) -> dict | None:
    """A 95% interval for Balance: the percentile interval of a bootstrap
    over the finished games (their outcomes drawn again, as many, with
    replacement), from a fixed generator: the same totals give the same
    interval, however they were gathered."""
    import numpy as np

    games = sum(outcomes.values())
    if games < 2:
        return None
    keys = sorted(outcomes)
    w = np.zeros((len(keys), n))
    for i, k in enumerate(keys):
        for pos in k:
            w[i, pos - 1] += 1 / len(k)
    probs = np.array([outcomes[k] for k in keys], dtype=float) / games
    draws = np.random.default_rng(20261130).multinomial(games, probs, size=BOOTSTRAP)
    shares = draws @ w / games
    bal = 1 - (shares.max(axis=1) - shares.min(axis=1))
    lo, hi = np.percentile(bal, [2.5, 97.5])
    return {"low": float(lo), "high": float(hi), "resamples": BOOTSTRAP}


def _prop(k, n) -> dict:
    p, lo, hi = wilson(float(k), n)
    return {
        "p": None if n <= 0 else p,
        "low": None if n <= 0 else lo,
        "high": None if n <= 0 else hi,
        "k": float(k),
        "n": n,
    }


def fairness_test(wins: list, games: int) -> tuple:
    """Pearson's χ² of the wins by position against an even share
    (df = positions - 1) and its p-value; ties shared, so approximate."""
    n = len(wins)
    if games <= 0 or n < 2:
        return None, None, None
    e = games / n
    chi2 = sum((float(w) - e) ** 2 / e for w in wins)
    return chi2, n - 1, chi2_sf(chi2, n - 1)


def chi2_sf(x: float, k: int) -> float:
    """P(χ²_k ≥ x) for a whole number of degrees of freedom k (closed forms)."""
    if x <= 0:
        return 1.0
    h = x / 2
    if k % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, k // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    total = math.erfc(math.sqrt(h))
    term = math.sqrt(h) / math.gamma(1.5)  # i = 1: h^(1/2) / Γ(3/2)
    for i in range(1, (k + 1) // 2):
        total += math.exp(-h) * term
        term *= h / (i + 0.5)
    return min(1.0, total)
