"""Design measures of simulated play, and the statistics to compare them.

One game is read as it is played: the state calls back at each hand's start
and end (``State(on_hand=…)``, no event built, the agents asked inside the
rules' loops), where the game's counters, ``State.stats``, are cut into hands
and every seat's running score is read. ``Reader`` (what ``simulate`` and
``run_design`` use) keeps running totals of the game and folds them into a
``Design`` at its end; ``game_measures`` gives the same as a record per hand;
``measures_from_log`` is the old reading, by an event sink, kept as the
reference they are tested against. ``Design`` folds
games into exact totals (integers and fractions), so that totals of chunks
played on other processes merge into the same numbers in any order: the same
seed gives the same report for any number of workers. Game ``i`` uses the seed
``game_seed(seed, i)`` of ``interpreter.simulate``: two games compared are
played on the same seeds.

The measures and their names (Ludii's and RECYCLE's where they are the same)
are defined in docs/measures.md. Intervals, all at 95 %: a proportion of games
has a Wilson score interval; a mean over games is mean ± 1.96·SE; a mean or a
proportion over hands is a ratio of per-game totals, with the cluster-robust
(linearised) SE of a ratio estimator, so that the hands of one game count as
one cluster; a difference of two proportions has Newcombe's hybrid score
interval, a difference of two means ± 1.96·sqrt(SE_a² + SE_b²).
"""

from __future__ import annotations

from .measures_design import (  # noqa: F401  (re-exported)
    HAND_COUNTERS,
    Design,
    Skill,
    decisiveness,
    drama,
    game_curve,
    lead_change,
    leaders,
)
from .measures_read import Reader, game_measures, measures_from_log  # noqa: F401  (re-exported)
from .measures_run import (  # noqa: F401  (re-exported)
    DesignCollector,
    check_agent_specs,
    measure,
    run_design,
    run_skill,
    skill_agents,
)
from .measures_stats import (  # noqa: F401  (re-exported)
    BOOTSTRAP,
    Z,
    Ratio,
    Sums,
    balance_interval,
    chi2_sf,
    fairness_test,
    mean_ci,
    mean_diff,
    newcombe,
    wilson,
)
