#!/usr/bin/env python3
"""A training run of RLCard's own DQN agent on a unorules rulebook through the RLCard adapter
(issues 15 and 30): seat 0 learns against `--opponents` (RLCard's RandomAgent, or the engine's
greedy heuristic through `unorules.envs.rlcard.PolicyAgent`), and every `--every` episodes its win
rate over `--eval` evaluation games is printed (the learning curve), with a last evaluation of
`--final-eval` games and its 95% interval. Any rule the adapter takes: `--players`, `--with` (a
custom card), `--include`. Needs `unorules[rlcard]` and torch (`pip install torch==2.13.0`); not
part of CI.

    python bench/dqn_rlcard.py --rulebook rlcard --episodes 3000
    python bench/dqn_rlcard.py --rulebook official --with shield --players 4 --opponents greedy \
        --episodes 4000 --final-eval 2000
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rulebook", default="rlcard")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--with", dest="with_", action="append", default=[], help="a custom card or rule file (repeatable)")
    ap.add_argument("--include", action="append", default=[], help="a rule module (repeatable)")
    ap.add_argument("--opponents", default="random", help="the other seats: random (RLCard's) or an engine agent "
                                                         "(greedy, random_play, ismcts:N)")
    ap.add_argument("--eval-opponents", help="the other seats in the evaluations (default: --opponents)")
    ap.add_argument("--episodes", type=int, default=3000)
    ap.add_argument("--every", type=int, default=500)
    ap.add_argument("--eval", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=0.0005)
    ap.add_argument("--layers", default="128,128", help="the Q network's hidden layers")
    ap.add_argument("--final-eval", type=int, default=0, help="games of a last evaluation (with its 95%% interval)")
    ap.add_argument("--baselines", action="store_true",
                    help="also evaluate a random seat and a greedy seat in seat 0, over --final-eval games")
    ap.add_argument("--native", action="store_true",
                    help="RLCard's own 'uno' environment instead of the rulebook's (the reference run)")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch's threads: one, since a small network on a busy machine slows down with more")
    args = ap.parse_args()
    import torch
    torch.set_num_threads(args.threads)
    from rlcard.agents import DQNAgent, RandomAgent
    from rlcard.utils import reorganize
    from unorules.envs.rlcard import make
    torch.manual_seed(args.seed)
    if args.native:
        import rlcard
        env = rlcard.make("uno", config={"seed": args.seed})
        test_env = rlcard.make("uno", config={"seed": args.seed + 1})
    else:
        rules = dict(players=args.players, turn_cap=400, with_=tuple(args.with_), include=tuple(args.include))
        env = make(rulebook=args.rulebook, seed=args.seed, **rules)
        test_env = make(rulebook=args.rulebook, seed=args.seed + 1, **rules)
    agent = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], mlp_layers=[int(x) for x in args.layers.split(",")],
                     learning_rate=args.lr, batch_size=64, replay_memory_size=20000,
                     epsilon_decay_steps=20000, train_every=1, save_path=None)
    def seats(name, seed):
        if name == "random":
            return [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players - 1)]
        from unorules.envs.rlcard import PolicyAgent
        return [PolicyAgent(name, seed=seed + k) for k in range(env.num_players - 1)]
    args.eval_opponents = args.eval_opponents or args.opponents
    others = seats(args.opponents, args.seed)
    eval_others = seats(args.eval_opponents, args.seed + 100)
    env.set_agents([agent, *others])
    test_env.set_agents([agent, *eval_others])
    start = time.time()
    print(f"{args.rulebook}{''.join(' --with ' + w for w in args.with_)}, {env.num_players} players, "
          f"{env.num_actions} actions, state {env.state_shape[0]}; DQN in seat 0 learns against {args.opponents}, "
          f"is evaluated against {args.eval_opponents}", flush=True)

    def win_rate(games):
        wins = 0
        for _ in range(games):                           # a win: seat 0's return is positive
            _, payoffs = test_env.run(is_training=False)
            wins += payoffs[0] > 0
        rate = wins / games
        return rate, 1.96 * (rate * (1 - rate) / games) ** 0.5

    def evaluate(episode, games, who="DQN"):
        rate, half = win_rate(games)
        print(f"\nepisode {episode:>6}  {who} win rate vs {args.eval_opponents} {rate:.3f} ± {half:.3f} over {games} games"
              f" ({env.num_players} players: a seat's fair share is {1 / env.num_players:.3f})"
              f"  ({time.time() - start:.0f} s)", flush=True)
    evaluate(0, args.eval)
    for episode in range(1, args.episodes + 1):
        trajectories, payoffs = env.run(is_training=True)
        for ts in reorganize(trajectories, payoffs)[0]:
            agent.feed(ts)
        if episode % args.every == 0:
            evaluate(episode, args.eval)
    if args.final_eval:
        evaluate(args.episodes, args.final_eval)
    if args.baselines and args.final_eval and not args.native:
        from unorules.envs.rlcard import PolicyAgent
        for who, seat0 in (("random", RandomAgent(num_actions=env.num_actions)), ("greedy", PolicyAgent("greedy"))):
            test_env.set_agents([seat0, *eval_others])
            evaluate(args.episodes, args.final_eval, who=f"a {who} seat's")


if __name__ == "__main__":
    main()
