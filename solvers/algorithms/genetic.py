"""Goykhman's genetic algorithm for poker strategies (seed 000, §3 and §6).

Goykhman, "Genetic algorithm versus counterfactual regret minimization in simplified poker"
evolves pure strategies: a chromosome holds one binary gene per (decision, private hand), 1 for
the second action (bet / call) and 0 for the first (check / fold). So the game must have exactly
two actions at every decision node (von Neumann poker, flop poker, Kuhn, push/fold). A mixed
strategy appears only as polymorphism, and the output is the **average chromosome of the fittest
fraction** ``elite_fraction`` of the last evaluated generation.

One generation (``_step``):

1. every member gets a fitness (below);
2. the top ``alpha * N`` members (ties in random order) are kept as parents, the rest discarded;
3. ``(1 - alpha) * N`` offspring are bred from pairs of parents. With ``scheme="coevolution"``
   parents are chosen with probability proportional to fitness; with ``"participant"``,
   uniformly;
4. crossover is gene-wise. Where the parents agree, the child inherits the gene, flipped with
   probability ``mutation`` (mutation happens nowhere else). Where they disagree, the child takes
   one parent's gene: with ``coevolution`` in proportion to the parents' fitness; with
   ``participant``, 50/50.

Two schemes from the paper:

- ``coevolution`` (§3, von Neumann): separate populations of Players and Dealers. Each member
  plays ``games`` (R) randomly paired games against the opposite population, starting from a
  bankroll ``bankroll`` (B0). Its fitness is ``phi = B_R / B0``, floored at 0 so it can weight
  a choice.
- ``participant`` (§6, flop poker, loss-minimising): one population of Participants. Each carries
  a Player chromosome and a Dealer chromosome and gets a random role in each game. Fitness is the
  negative squared loss. **Our reading of the ambiguous rule:** what is squared is the
  Participant's *net* result over the evolution round, counted only when it is a loss:
  ``fitness = -min(0, net)^2``. Winners and break-even players score 0, the best possible. The
  other readings square every single game's loss (``-sum min(0, payoff)^2``), which also scores
  variance, or the gross losses. The squaring keeps the ranking of the losers, so under our
  reading selection means "keep a random top fraction of the non-losers". This matches the
  paper's remark that the most fit score zero, so parents are chosen uniformly.

Fitness evaluation, option ``fitness``:

- ``"exact"`` (default for ``participant``): the R -> infinity limit of the paper's random
  pairings. A member's expected result against a random opponent equals its exact expected value
  against the opponent population's *average* realization plan, because payoff is bilinear in
  the two plans.
  We compute it with the sequence-form payoff matrix (``solvers.exact.lp``), so the whole population
  costs two matrix products: ``EV_0 = X A y_mean`` and ``EV_1 = -Y A^T x_mean``. Net results
  are ``R * EV`` (``R * (EV_0 + EV_1) / 2`` for a Participant with random roles).
- ``"sampled"`` (the paper's own scheme; default for ``coevolution``): R rounds of random
  pairings, each with hands dealt from the prior. A showdown pays its exact expectation over any
  board (for flop poker, the flop), which is a variance reduction. This mode needs a tree
  without chance nodes.

Presets (``preset``; options you give explicitly override the preset):

- ``"paper"``: for ``coevolution``, N = 5000, alpha = 0.1, mutation = 1e-6, R = 1e4 and
  B0 = 1e4 (§3.2); for ``participant``, N = 2000, alpha = 0.3, mutation = 1e-4 and R = 1e4
  (§6). Fitness is ``sampled``. The paper ran T = 1000 generations, so pass
  ``--iterations 1000``.
- ``"default"``: scaled down to finish in minutes: N = 300, mutation = 1e-3, R = 200, B0 = 1e4,
  alpha as in the paper. ``coevolution`` uses ``sampled`` fitness: with ``exact`` fitness the
  two populations chase each other's best responses and cycle (von Neumann exploitability
  stayed at 0.04-0.13 for every N and mutation rate we tried), and the sampling noise damps
  that. ``participant`` uses ``exact`` fitness: its loss-minimising selection is stable, and
  R = 200 sampled games are too noisy for 169 hands.

The scheme defaults to ``participant`` for flop poker and to ``coevolution`` otherwise.

The output strategy (``average_strategy``) is the gene-wise mean of the elite, read per hand as a
behavioural probability, as in the paper. (In a game with several decisions per player, such as
Kuhn, this gene-wise mean is not the realization-plan mixture of the elite; in von Neumann and
flop poker, with one decision per player, the two agree.) ``current_strategy`` is the single
fittest member. The RNG (PCG64, ``seed``) state is part of the checkpoint, so a resumed run
repeats an uninterrupted one bit for bit.

Measured (exploitability in chips; uniform play is 0.333 on von Neumann (1, 2)):

- von Neumann (1, 2), 30 bins, default, seed 0, 300 generations (about 10 s): x1 = 0.103,
  x2 = 0.766, c = 0.240, y0 = 0.526 against 0.111 / 0.778 / 0.222 / 0.556; exploitability
  0.013. Running on to 1000 generations it wanders between 0.018 and 0.053 (at 1000: x1 =
  0.097, x2 = 0.733, y0 = 0.534, 0.018): N = 300 sets a noise floor; it does not converge
  further.
- 100 bins, default, 1000 generations (2 min): x1 = 0.094, x2 = 0.701, c = 0.183, y0 = 0.518,
  exploitability 0.034. Genes near the thresholds feel little selection pressure, so x2 creeps
  up slowly. With N = 1000 and R = 1000: exploitability 0.050 after 50 generations, 0.020
  after 100, 0.0097 after 300 (x1 = 0.117, x2 = 0.730, c = 0.179, y0 = 0.551) and 0.0081
  after 400 (7 min).
- The paper preset costs about 40 s per generation here (5e7 sampled games), so its 1000
  generations take about 11 hours; we have not run it to the end.
- flop poker (1, 2), default (participant, exact), seed 0: exploitability 0.268 at the start,
  0.0029 after 150 generations and 0.0008 after 400 (4 s), value 0.1493 (LP 0.14862). With
  sampled fitness (R = 200) it was still 0.067 after 400 generations: the paper's noise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solvers.algorithms.base import Solver, SolverError
from solvers.exact.lp import build_sequence_form
from solvers.games.base import Strategy, TreeGame

SCHEMES = ("coevolution", "participant")
FITNESS_MODES = ("exact", "sampled")
PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "default": {
        "coevolution": {
            "population": 300,
            "elite_fraction": 0.1,
            "mutation": 1e-3,
            "fitness": "sampled",
            "games": 200,
            "bankroll": 10_000.0,
        },
        "participant": {
            "population": 300,
            "elite_fraction": 0.3,
            "mutation": 1e-3,
            "fitness": "exact",
            "games": 200,
            "bankroll": 10_000.0,
        },
    },
    "paper": {
        "coevolution": {  # §3.2
            "population": 5000,
            "elite_fraction": 0.1,
            "mutation": 1e-6,
            "fitness": "sampled",
            "games": 10_000,
            "bankroll": 10_000.0,
        },
        "participant": {  # §6
            "population": 2000,
            "elite_fraction": 0.3,
            "mutation": 1e-4,
            "fitness": "sampled",
            "games": 10_000,
            "bankroll": 10_000.0,
        },
    },
}
SAMPLES_PER_BATCH = 1 << 20
"""Games played per vectorised batch in ``sampled`` fitness."""


def _rng_to_array(rng: np.random.Generator) -> np.ndarray:
    """PCG64 state as six uint64 words: state hi/lo, increment hi/lo, has_uint32, uinteger."""
    state = rng.bit_generator.state
    mask = (1 << 64) - 1
    inner = state["state"]
    words = [
        inner["state"] >> 64,
        inner["state"] & mask,
        inner["inc"] >> 64,
        inner["inc"] & mask,
        state["has_uint32"],
        state["uinteger"],
    ]
    return np.array(words, dtype=np.uint64)


def _rng_from_array(words: np.ndarray) -> np.random.Generator:
    w = [int(x) for x in np.asarray(words, dtype=np.uint64)]
    bit_generator = np.random.PCG64()
    bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": (w[0] << 64) | w[1], "inc": (w[2] << 64) | w[3]},
        "has_uint32": w[4],
        "uinteger": w[5],
    }
    return np.random.Generator(bit_generator)


class GeneticAlgorithm(Solver):
    """Goykhman's GA on a two-action ``TreeGame``; see the module docstring."""

    chunk = 1

    def __init__(
        self,
        game: TreeGame,
        preset: str = "default",
        scheme: str | None = None,
        population: int | None = None,
        elite_fraction: float | None = None,
        mutation: float | None = None,
        fitness: str | None = None,
        games: int | None = None,
        bankroll: float | None = None,
        seed: int | None = 0,
        output: str = "average",
    ) -> None:
        if game.simultaneous:
            raise SolverError(f"{game.name} is a matrix game: solve it with 'rm' or the LP")
        for node in game.decision_nodes():
            if len(node.children) != 2:
                raise SolverError(
                    f"ga needs two actions at every decision (binary genes); {game.name} node "
                    f"{node.key!r} has {len(node.children)}"
                )
        if preset not in PRESETS:
            raise SolverError(f"preset must be one of {sorted(PRESETS)}, not {preset!r}")
        scheme = scheme or ("participant" if game.name == "flop_poker" else "coevolution")
        if scheme not in SCHEMES:
            raise SolverError(f"scheme must be one of {SCHEMES}, not {scheme!r}")
        super().__init__(game, output)
        self.algorithm = "ga"
        given = {
            "population": population,
            "elite_fraction": elite_fraction,
            "mutation": mutation,
            "fitness": fitness,
            "games": games,
            "bankroll": bankroll,
        }
        values = {**PRESETS[preset][scheme], **{k: v for k, v in given.items() if v is not None}}
        self.preset, self.scheme = preset, scheme
        self.population_size = int(values["population"])
        self.elite_fraction = float(values["elite_fraction"])
        self.mutation = float(values["mutation"])
        self.fitness_mode = str(values["fitness"])
        self.games = int(values["games"])
        self.bankroll = float(values["bankroll"])
        self.seed = 0 if seed is None else int(seed)
        self._validate()
        self.n_elite = max(2, round(self.elite_fraction * self.population_size))

        # Gene layout per player: decision nodes in tree order, then hands (node-major).
        self.form = build_sequence_form(game)
        self.nodes = [[n.id for n in game.decision_nodes(p)] for p in (0, 1)]
        self.n_genes = [len(self.nodes[p]) * game.n_hands[p] for p in (0, 1)]
        if self.fitness_mode == "sampled":
            self._prepare_sampling()

        self.rng = np.random.Generator(np.random.PCG64(self.seed))
        self.populations = [
            self.rng.integers(0, 2, size=(self.population_size, self.n_genes[p]), dtype=np.int8)
            for p in (0, 1)
        ]
        # Before the first generation is ranked, the "elite" is the first n_elite random members.
        self.elites = [pop[: self.n_elite].copy() for pop in self.populations]
        self.elite_fitness = [np.zeros(self.n_elite) for _ in (0, 1)]

    def _validate(self) -> None:
        if self.population_size < 4:
            raise SolverError("population must be at least 4")
        if not 0.0 < self.elite_fraction < 1.0:
            raise SolverError("elite_fraction must be in (0, 1)")
        if not 0.0 <= self.mutation <= 1.0:
            raise SolverError("mutation must be a probability")
        if self.fitness_mode not in FITNESS_MODES:
            raise SolverError(f"fitness must be one of {FITNESS_MODES}, not {self.fitness_mode!r}")
        if self.games < 1 or self.bankroll <= 0:
            raise SolverError("games must be >= 1 and bankroll > 0")
        if self.scheme == "participant" and self.population_size % 2:
            raise SolverError("the participant scheme pairs members: population must be even")

    def settings(self) -> dict[str, Any]:
        return {
            **super().settings(),
            "preset": self.preset,
            "scheme": self.scheme,
            "population": self.population_size,
            "elite_fraction": self.elite_fraction,
            "mutation": self.mutation,
            "fitness": self.fitness_mode,
            "games": self.games,
            "bankroll": self.bankroll,
            "seed": self.seed,
        }

    # --- chromosomes <-> strategies -------------------------------------------------------
    def _plans(self, player: int, chromosomes: np.ndarray) -> np.ndarray:
        """``[N, n_sequences]`` realization plans of pure binary chromosomes, vectorised."""
        form, n_hands = self.form, self.game.n_hands[player]
        hands = np.arange(n_hands)
        plans = np.zeros((len(chromosomes), form.n_sequences[player]))
        plans[:, 0] = 1.0
        for k, nid in enumerate(self.nodes[player]):  # parents come first
            base, stride = form.parent_sequence[player][nid]
            reach = plans[:, base + hands * stride]
            genes = chromosomes[:, k * n_hands : (k + 1) * n_hands]
            block = np.stack([reach * (1 - genes), reach * genes], axis=2)
            offset = form.offsets[player][nid]
            plans[:, offset : offset + 2 * n_hands] = block.reshape(len(chromosomes), -1)
        return plans

    def _to_strategy(self, player: int, genes: np.ndarray) -> Strategy:
        """Per-gene probabilities of the second action as a behavioural strategy."""
        n_hands = self.game.n_hands[player]
        out: Strategy = {}
        for k, nid in enumerate(self.nodes[player]):
            second = np.asarray(genes[k * n_hands : (k + 1) * n_hands], dtype=float)
            out[nid] = np.stack([1.0 - second, second], axis=1)
        return out

    def average_strategy(self) -> Strategy:
        return {
            **self._to_strategy(0, self.elites[0].mean(axis=0)),
            **self._to_strategy(1, self.elites[1].mean(axis=0)),
        }

    def current_strategy(self) -> Strategy:
        """The fittest single member of each population (a pure strategy)."""
        return {
            **self._to_strategy(0, self.elites[0][0]),
            **self._to_strategy(1, self.elites[1][0]),
        }

    # --- fitness --------------------------------------------------------------------------
    def _exact_expected_values(self) -> list[np.ndarray]:
        """Each member's exact EV against the opposite population's average plan."""
        plans = [self._plans(p, self.populations[p]) for p in (0, 1)]
        payoff = self.form.payoff
        mean = [plan.mean(axis=0) for plan in plans]
        ev0 = plans[0] @ (payoff @ mean[1])
        ev1 = -(plans[1] @ (payoff.T @ mean[0]))
        return [ev0, ev1]

    def _prepare_sampling(self) -> None:
        game = self.game
        if any(n.is_chance for n in game.nodes):
            raise SolverError("sampled fitness needs a tree without chance nodes; use exact")
        n_nodes = len(game.nodes)
        self._children = np.zeros((n_nodes, 2), dtype=np.intp)
        self._actor = np.full(n_nodes, -1, dtype=np.intp)
        self._gene_offset = np.zeros(n_nodes, dtype=np.intp)
        for p in (0, 1):
            for k, nid in enumerate(self.nodes[p]):
                self._actor[nid] = p
                self._gene_offset[nid] = k * game.n_hands[p]
        for node in game.nodes:
            if node.is_decision:
                self._children[node.id] = node.children
        prior = game.prior
        with np.errstate(invalid="ignore", divide="ignore"):
            self._payoff_table = np.stack(
                [
                    np.where(prior > 0, game.terminal_matrix(int(t)) / prior, 0.0)
                    if game.nodes[t].is_terminal
                    else np.zeros(game.n_hands)
                    for t in range(n_nodes)
                ]
            )
        cdf = np.cumsum(prior.ravel())
        self._prior_cdf = cdf / cdf[-1]

    def _play(self, players: np.ndarray, dealers: np.ndarray) -> np.ndarray:
        """Player 0's payoff in games of ``populations[0][players[i]]`` against
        ``populations[1][dealers[i]]``, with hands dealt from the prior."""
        pop0, pop1 = self.populations
        n = len(players)
        deal = np.searchsorted(self._prior_cdf, self.rng.random(n), side="right")
        deal = np.minimum(deal, len(self._prior_cdf) - 1)
        h0, h1 = np.divmod(deal, self.game.n_hands[1])
        node = np.zeros(n, dtype=np.intp)
        rows = np.arange(n)
        while True:
            actor = self._actor[node]
            deciding = actor >= 0
            if not deciding.any():
                break
            idx = rows[deciding]
            at, who = node[idx], actor[idx]
            action = np.where(
                who == 0,
                pop0[players[idx], self._gene_offset[at] + h0[idx]],
                pop1[dealers[idx], self._gene_offset[at] + h1[idx]],
            )
            node[idx] = self._children[at, action]
        return self._payoff_table[node, h0, h1]

    def _sampled_nets(self) -> list[np.ndarray]:
        """Net winnings over ``games`` rounds of random pairings (the paper's scheme)."""
        n = self.population_size
        nets = [np.zeros(n), np.zeros(n)]
        per_round = n if self.scheme == "coevolution" else n // 2
        batch = max(1, SAMPLES_PER_BATCH // per_round)
        done = 0
        while done < self.games:
            rounds = min(batch, self.games - done)
            done += rounds
            if self.scheme == "coevolution":
                players = np.tile(np.arange(n), rounds)
                dealers = self.rng.permuted(np.tile(np.arange(n), (rounds, 1)), axis=1).ravel()
                payoff = self._play(players, dealers)
                nets[0] += np.bincount(players, weights=payoff, minlength=n)
                nets[1] -= np.bincount(dealers, weights=payoff, minlength=n)
            else:
                order = self.rng.permuted(np.tile(np.arange(n), (rounds, 1)), axis=1)
                first, second = order[:, : n // 2].ravel(), order[:, n // 2 :].ravel()
                swap = self.rng.random(first.size) < 0.5
                players = np.where(swap, second, first)
                dealers = np.where(swap, first, second)
                payoff = self._play(players, dealers)
                total = np.bincount(players, weights=payoff, minlength=n)
                total -= np.bincount(dealers, weights=payoff, minlength=n)
                nets[0] += total
        if self.scheme == "participant":
            nets[1] = nets[0]
        return nets

    def _fitness(self) -> list[np.ndarray]:
        if self.fitness_mode == "exact":
            ev = self._exact_expected_values()
            if self.scheme == "coevolution":
                nets = [self.games * ev[0], self.games * ev[1]]
            else:
                net = self.games * (ev[0] + ev[1]) / 2
                nets = [net, net]
        else:
            nets = self._sampled_nets()
        if self.scheme == "coevolution":
            return [np.maximum(0.0, (self.bankroll + net) / self.bankroll) for net in nets]
        loss = -(np.minimum(0.0, nets[0]) ** 2)
        return [loss, loss]

    # --- one generation -------------------------------------------------------------------
    def _rank(self, fitness: np.ndarray) -> np.ndarray:
        """Member indices, fittest first; ties in random order."""
        shuffled = self.rng.permutation(len(fitness))
        return shuffled[np.argsort(-fitness[shuffled], kind="stable")]

    def _breed(self, parents: list[np.ndarray], weights: np.ndarray | None) -> list[np.ndarray]:
        """Offspring for each population from parent rows chosen with ``weights`` (or uniform).

        In the participant scheme ``parents[0][i]`` and ``parents[1][i]`` are one Participant, so
        both chromosomes of a child come from the same two Participants.
        """
        n_children = self.population_size - self.n_elite
        probs = None
        if weights is not None and weights.sum() > 0:
            probs = weights / weights.sum()
        mothers = self.rng.choice(self.n_elite, size=n_children, p=probs)
        fathers = self.rng.choice(self.n_elite, size=n_children, p=probs)
        if weights is None or weights[mothers].sum() + weights[fathers].sum() == 0:
            take_mother = np.full(n_children, 0.5)
        else:
            pair = weights[mothers] + weights[fathers]
            with np.errstate(invalid="ignore", divide="ignore"):
                take_mother = np.where(pair > 0, weights[mothers] / pair, 0.5)
        children = []
        for genes in parents:
            mother, father = genes[mothers], genes[fathers]
            flip = self.rng.random(mother.shape) < self.mutation
            pick = self.rng.random(mother.shape) < take_mother[:, None]
            agree = mother == father
            child = np.where(agree, mother ^ flip.astype(np.int8), np.where(pick, mother, father))
            children.append(child.astype(np.int8))
        return children

    def _step(self) -> None:
        fitness = self._fitness()
        if self.scheme == "coevolution":
            new = []
            for p in (0, 1):
                order = self._rank(fitness[p])[: self.n_elite]
                self.elites[p] = self.populations[p][order]
                self.elite_fitness[p] = fitness[p][order]
                (child,) = self._breed([self.elites[p]], self.elite_fitness[p])
                new.append(np.concatenate([self.elites[p], child]))
        else:
            order = self._rank(fitness[0])[: self.n_elite]
            for p in (0, 1):
                self.elites[p] = self.populations[p][order]
                self.elite_fitness[p] = fitness[p][order]
            children = self._breed(self.elites, None)
            new = [np.concatenate([self.elites[p], children[p]]) for p in (0, 1)]
        self.populations = new
        self.iterations += 1

    def progress_info(self) -> dict[str, Any]:
        """Mean elite fitness per population, and how many genes still vary in each."""
        return {
            "elite_fitness": [float(f.mean()) for f in self.elite_fitness],
            "polymorphic_genes": [
                int((pop.min(axis=0) != pop.max(axis=0)).sum()) for pop in self.populations
            ],
        }

    # --- checkpoints ----------------------------------------------------------------------
    def _arrays(self) -> dict[str, np.ndarray]:
        return {
            "population_0": self.populations[0],
            "population_1": self.populations[1],
            "elite_0": self.elites[0],
            "elite_1": self.elites[1],
            "elite_fitness_0": self.elite_fitness[0],
            "elite_fitness_1": self.elite_fitness[1],
            "rng": _rng_to_array(self.rng),
        }

    def _load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        self.populations = [arrays[f"population_{p}"].astype(np.int8) for p in (0, 1)]
        self.elites = [arrays[f"elite_{p}"].astype(np.int8) for p in (0, 1)]
        self.elite_fitness = [arrays[f"elite_fitness_{p}"].astype(float) for p in (0, 1)]
        self.rng = _rng_from_array(arrays["rng"])
