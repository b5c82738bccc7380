/* Exact SOS solver (two players): negamax with alpha-beta, a two-bound transposition table
 * keyed by the least Zobrist key over the board's symmetries, move ordering and bounds from the
 * live lines. Values as sos.ai.solver: general = own future points - opponent's future points
 * under optimal play (a player who scores moves again); simple = +1 win, 0 draw, -1 loss.
 */
#ifndef CSOS_SOLVER_H
#define CSOS_SOLVER_H

#include <stdint.h>

#include "board.h"

typedef struct {
    uint64_t key;
    int8_t lo, hi;     /* proven bounds of the value */
    uint8_t empties;   /* empty squares of the position (its cost, for replacement) */
    uint8_t move;      /* best move in the canonical frame: (cell << 1) | (letter - 1), 255 none */
    uint32_t spare;
} Entry;

extern Pos P;
extern uint64_t nodes;
extern volatile int stop_flag;
extern double stop_at; /* wall-clock time (seconds since the epoch) to stop at; 0 = never */

/* Allocate the table: 2^bits entries (4 per bucket). */
int tt_alloc(int bits);
void tt_clear(void);
/* Entries with at least min_empties empty squares to/from a file (checkpoints). */
long tt_save(const char *path, int min_empties);
long tt_load(const char *path);
/* Bounds the table holds for the current position P (returns 0 if none). */
int tt_bounds(int *lo, int *hi);

/* Value of P for the side to move within (alpha, beta), fail-soft. Check stop_flag after. */
int negamax(int alpha, int beta);
/* Largest |value| possible from P (the live lines; 1 in simple mode). */
int value_limit(void);
/* Seed the history table with small pseudo-random values (another move order among equals;
 * 0 keeps the default order). */
void history_seed(unsigned long long seed);
/* Exact value of P. */
int solve_exact(void);

#endif
