"""Reference values for the game-level statistics (src/eval/game-level.ts), made by scipy and
statsmodels on generated data, written to src/eval/fixtures/game-level-reference.json so the
Vitest test compares our numbers with theirs without Python at test time.

Run: python3 -m venv /tmp/v && /tmp/v/bin/pip install scipy statsmodels
     /tmp/v/bin/python scripts/game-level-reference.py
"""
import json
import pathlib

import numpy as np
import scipy
import statsmodels
from scipy import stats
from statsmodels.stats.multitest import multipletests

rng = np.random.default_rng(20260)
cases = []
# The first case: three games' Δ 0.041, 0.059, 0.104 (a bootstrap gave [0.029, 0.114] here).
# Then game-mean differences of G games (G = 2 … 12), with and without a true shift.
draws = [[0.041, 0.059, 0.104]] + [None] * 10
for g, fixed in zip([3, 2, 3, 3, 4, 5, 6, 6, 8, 10, 12], draws):
    shift = float(rng.choice([0.0, 0.03, 0.08]))
    values = fixed or [round(float(x), 6) for x in rng.normal(shift, 0.05, size=g)]
    t = stats.ttest_1samp(values, 0.0)
    ci = t.confidence_interval(0.95)
    perm = stats.permutation_test((np.array(values),), np.mean, permutation_type='samples', alternative='two-sided', n_resamples=np.inf)
    cases.append({
        'values': values,
        'tLow': float(ci.low), 'tHigh': float(ci.high), 'tP': float(t.pvalue),
        'signFlipP': float(perm.pvalue),
    })

quantiles = []
for df in [1, 2, 3, 5, 9, 30]:
    for q in [0.025, 0.9, 0.975, 0.995]:
        quantiles.append({'q': q, 'df': df, 't': float(stats.t.ppf(q, df))})

holm_cases = []
for m in [1, 3, 5, 8]:
    p = [round(float(x), 6) for x in rng.uniform(0, 0.2, size=m)]
    holm_cases.append({'p': p, 'adjusted': [float(x) for x in multipletests(p, method='holm')[1]]})

# Power of the two-sided one-sample t-test on G game means (noncentral t, statsmodels), for
# effect size d = Δ / SD(game mean) with SD(game mean)² = τ² + σ²/r.
from statsmodels.stats.power import TTestPower
power_cases = []
for games, tau, sigma, r, delta in [(3, 0.0, 0.1, 15, 0.05), (6, 0.03, 0.1, 15, 0.05), (8, 0.05, 0.1, 10, 0.05), (12, 0.02, 0.2, 5, 0.04), (6, 0.0, 0.1, 30, 0.05)]:
    sd = (tau ** 2 + sigma ** 2 / r) ** 0.5
    power_cases.append({'games': games, 'tau': tau, 'sessionSd': sigma, 'repeats': r, 'delta': delta,
                        'power': float(TTestPower().power(effect_size=delta / sd, nobs=games, alpha=0.05, alternative='two-sided'))})

out = {
    'madeBy': f'scripts/game-level-reference.py with scipy {scipy.__version__}, statsmodels {statsmodels.__version__}, numpy {np.__version__}',
    'cases': cases, 'quantiles': quantiles, 'holm': holm_cases, 'power': power_cases,
}
path = pathlib.Path(__file__).resolve().parent.parent / 'src' / 'eval' / 'fixtures' / 'game-level-reference.json'
path.write_text(json.dumps(out, indent=1) + '\n')
print(f'wrote {path}')
