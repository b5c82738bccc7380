/* SOS board for the offline tools (benchmarks/csos): geometry, incremental position, text I/O.
 *
 * Cells are indexed row * C + col (row 0 at the top). Letters: 0 empty, 1 = S, 2 = O.
 * A "triple" is a potential S-O-S: ends a and b (the S squares) and middle m (the O square).
 * The position keeps, for each triple, how many of its squares hold the right letter (good)
 * and how many the wrong one (bad); from those: the open threats (two right, one empty), the
 * number of squares where a letter would complete an SOS (cap), and the live triples (no wrong
 * letter, not yet complete) that bound the points still to be scored.
 *
 * Written for the SOS project (issue 27); C99, no dependencies.
 */
#ifndef CSOS_BOARD_H
#define CSOS_BOARD_H

#include <stdint.h>

#define MAXSIDE 12
#define MAXN (MAXSIDE * MAXSIDE)
#define MAXT 512 /* 12x12: 120 + 120 + 100 + 100 = 440 triples */
#define EMPTY 0
#define LS 1
#define LO 2

typedef struct {
    int R, C, N, simple;
    int ntri;
    short tri[MAXT][3];              /* a, m, b */
    unsigned char ntri_at[MAXN];     /* triples through a cell (<= 12) */
    short tri_at[MAXN][12];
    unsigned char role_at[MAXN][12]; /* 0: the cell is an end (needs S), 1: the middle (needs O) */
    int nsym;                        /* 8 on a square board, 4 on a rectangle */
    unsigned char perm[8][MAXN];     /* image of each cell under each symmetry */
    unsigned char inv[8][MAXN];      /* inverse images */
    uint64_t zob[MAXN][3];
} Geo;

typedef struct {
    unsigned char cell[MAXN];
    unsigned char good[MAXT], bad[MAXT];
    unsigned char cap[MAXN][3]; /* cap[i][L]: SOSs that letter L on empty square i completes */
    int threats;                /* triples with two right letters and one empty square */
    int live;                   /* triples without a wrong letter, not complete */
    int empties;
    uint64_t h[8];              /* Zobrist key of each symmetric image */
} Pos;

extern Geo G;
/* Set before geo_init: no symmetry (each board its own key; a second, independent check). */
extern int geo_no_sym;

/* Build the geometry of an R x C board (R, C in 1..MAXSIDE) for mode simple (1) or general (0). */
void geo_init(int R, int C, int simple);
/* Reset pos to the empty board. */
void pos_clear(Pos *p);
/* Write letter L on empty cell i; returns the number of SOSs completed. */
int pos_place(Pos *p, int i, int L);
/* Undo pos_place on cell i. */
void pos_unplace(Pos *p, int i);
/* Would L on cell i (empty, completing nothing) open a threat for the next player? */
int pos_unsafe(const Pos *p, int i, int L);
/* Canonical key (least over the symmetries) and the symmetry that gives it. */
uint64_t pos_canon(const Pos *p, int *sym);
/* Parse "S.S/.O./..." into R, C and letters; returns 0 on success, -1 on malformed text. */
int parse_board(const char *text, int *R, int *C, unsigned char *cells);
/* Format move (i, L) as "S@b3" into out (>= 8 bytes). */
void move_name(int i, int L, char *out);
/* Parse "S@b3" for the current geometry into cell and letter; 0 on success. */
int parse_move(const char *text, int *i, int *L);
/* Set up pos from cells (letters placed one by one; points are not counted). */
void pos_from_cells(Pos *p, const unsigned char *cells);

#endif
