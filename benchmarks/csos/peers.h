/* Peers for strength matches: UCT MCTS with random playouts and a depth-limited alpha-beta. */
#ifndef CSOS_PEERS_H
#define CSOS_PEERS_H

#include <stdint.h>

#include "board.h"

/* Move (cell << 1 | letter - 1) chosen by UCT from `root`, the side to move leading by `lead`
 * points, after `seconds` of iterations (0: no time limit) or `max_iterations` (0: no limit),
 * whichever comes first. Iterations done go to *iterations. */
int mcts_move(const Pos *root, int lead, double seconds, long max_iterations, uint64_t seed,
              long *iterations);
/* Move chosen by a `depth`-ply alpha-beta (a scoring move is a ply too) maximising the
 * score difference; equal moves are broken by `seed`. Nodes searched go to *nodes. */
int ab_move(const Pos *root, int depth, uint64_t seed, long *nodes);

#endif
