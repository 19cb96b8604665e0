"""Chi-square goodness of fit without third-party packages."""

import math
from collections.abc import Sequence


def _upper_regularized_gamma(a: float, x: float) -> float:
    """Q(a, x) by the series (x < a + 1) or Lentz's continued fraction."""
    if x <= 0:
        return 1.0
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    b = x + 1 - a
    c = 1e300
    d = 1 / b
    h = d
    i = 1
    while True:
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        i += 1
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi_square_p(observed: Sequence[int], expected: Sequence[float], ddof: int = 0) -> float:
    """p-value that ``observed`` comes from ``expected`` (upper tail of chi-square)."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    df = len(observed) - 1 - ddof
    return _upper_regularized_gamma(df / 2, stat / 2)
