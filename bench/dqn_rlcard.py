#!/usr/bin/env python3
"""A short training run of RLCard's own DQN agent on a unorules rulebook through the RLCard
adapter (issue 15): it plays against RLCard's RandomAgent, and every `--every` episodes its win
rate over `--eval` evaluation games is printed (the learning curve). Needs `unorules[rlcard]` and
torch; not part of CI.

    python bench/dqn_rlcard.py --rulebook rlcard --episodes 3000
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
    ap.add_argument("--episodes", type=int, default=3000)
    ap.add_argument("--every", type=int, default=500)
    ap.add_argument("--eval", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=0.0005)
    ap.add_argument("--layers", default="128,128", help="the Q network's hidden layers")
    ap.add_argument("--final-eval", type=int, default=0, help="games of a last evaluation (with its 95%% interval)")
    ap.add_argument("--native", action="store_true",
                    help="RLCard's own 'uno' environment instead of the rulebook's (the reference run)")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch's threads: one, since a small network on a busy machine slows down with more")
    args = ap.parse_args()
    import torch
    torch.set_num_threads(args.threads)
    from rlcard.agents import DQNAgent, RandomAgent
    from rlcard.utils import reorganize, tournament
    from unorules.envs.rlcard import make
    torch.manual_seed(args.seed)
    if args.native:
        import rlcard
        env = rlcard.make("uno", config={"seed": args.seed})
        test_env = rlcard.make("uno", config={"seed": args.seed + 1})
    else:
        env = make(rulebook=args.rulebook, players=2, seed=args.seed, turn_cap=400)
        test_env = make(rulebook=args.rulebook, players=2, seed=args.seed + 1, turn_cap=400)
    agent = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], mlp_layers=[int(x) for x in args.layers.split(",")],
                     learning_rate=args.lr, batch_size=64, replay_memory_size=20000,
                     epsilon_decay_steps=20000, train_every=1, save_path=None)
    rand = RandomAgent(num_actions=env.num_actions)
    env.set_agents([agent, rand])
    test_env.set_agents([agent, rand])
    start = time.time()

    def evaluate(episode, games):
        payoff = tournament(test_env, games)[0]          # mean payoff of seat 0: 2 * win rate - 1
        rate = (payoff + 1) / 2
        half = 1.96 * (rate * (1 - rate) / games) ** 0.5
        print(f"\nepisode {episode:>6}  win rate vs random {rate:.3f} ± {half:.3f} over {games} games"
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


if __name__ == "__main__":
    main()
