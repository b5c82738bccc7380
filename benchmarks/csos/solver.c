/* Exact SOS solver: see solver.h.
 *
 * Pruning specific to SOS:
 *  - live lines: at most P.live more SOSs can be made, so |general value| <= P.live; with none
 *    left a simple game is a draw;
 *  - simple mode: a player with an open threat wins at once (+1); a move that opens a threat
 *    loses at once (the opponent completes it), so only safe moves are searched; no safe move
 *    left means a loss;
 *  - move ordering: the table's move, then captures (most SOSs first), then safe moves, then
 *    the rest; principal variation search (null windows after the first move) in general mode.
 */
#include "solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

Pos P;
uint64_t nodes;
volatile int stop_flag;
double stop_at;

static Entry *tt;
/* history heuristic: how often each move (cell << 1 | letter - 1) caused a cutoff */
static uint64_t history[2 * MAXN];
static uint64_t tt_mask; /* bucket index mask */

static double now(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec * 1e-6;
}

int tt_alloc(int bits) {
    free(tt);
    size_t n = (size_t)1 << bits;
    tt = calloc(n, sizeof(Entry));
    if (!tt) return -1;
    tt_mask = (n >> 2) - 1;
    tt_clear();
    return 0;
}

void tt_clear(void) {
    size_t n = (size_t)(tt_mask + 1) << 2;
    memset(tt, 0, n * sizeof(Entry));
}

static Entry *tt_find(uint64_t key) {
    Entry *b = tt + ((key & tt_mask) << 2);
    for (int k = 0; k < 4; k++)
        if (b[k].key == key && b[k].empties) return &b[k];
    return NULL;
}

static void tt_store(uint64_t key, int lo, int hi, int move) {
    Entry *b = tt + ((key & tt_mask) << 2);
    Entry *slot = NULL;
    for (int k = 0; k < 4; k++)
        if (b[k].key == key && b[k].empties) {
            slot = &b[k];
            /* both old and new bounds are proven: keep the tighter of each */
            if (slot->lo > lo) lo = slot->lo;
            if (slot->hi < hi) hi = slot->hi;
            if (move == 255) move = slot->move;
            break;
        }
    if (!slot) {
        /* replace the cheapest entry (fewest empty squares: the smallest subtree) */
        slot = &b[0];
        for (int k = 1; k < 4; k++)
            if (b[k].empties < slot->empties) slot = &b[k];
        slot->key = key;
    }
    if (lo < -127) lo = -127;
    if (hi > 127) hi = 127;
    slot->lo = (int8_t)lo;
    slot->hi = (int8_t)hi;
    slot->empties = (uint8_t)P.empties;
    slot->move = (uint8_t)move;
}

int tt_bounds(int *lo, int *hi) {
    int sym;
    Entry *e = tt_find(pos_canon(&P, &sym));
    if (!e) return 0;
    *lo = e->lo;
    *hi = e->hi;
    return 1;
}

long tt_save(const char *path, int min_empties) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    size_t n = (size_t)(tt_mask + 1) << 2;
    long written = 0;
    uint32_t head[4] = {0x534F5354u, (uint32_t)G.R, (uint32_t)G.C, (uint32_t)G.simple};
    fwrite(head, sizeof head, 1, f);
    for (size_t k = 0; k < n; k++)
        if (tt[k].empties >= min_empties && tt[k].empties) {
            fwrite(&tt[k], sizeof(Entry), 1, f);
            written++;
        }
    if (fclose(f) != 0) return -1;
    if (rename(tmp, path) != 0) return -1;
    return written;
}

long tt_load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    uint32_t head[4];
    if (fread(head, sizeof head, 1, f) != 1 || head[0] != 0x534F5354u || head[1] != (uint32_t)G.R ||
        head[2] != (uint32_t)G.C || head[3] != (uint32_t)G.simple) {
        fclose(f);
        return -1;
    }
    Entry e;
    long n = 0;
    int saved_empties = P.empties;
    while (fread(&e, sizeof e, 1, f) == 1) {
        P.empties = e.empties;
        tt_store(e.key, e.lo, e.hi, e.move);
        n++;
    }
    P.empties = saved_empties;
    fclose(f);
    return n;
}

int value_limit(void) {
    if (G.simple) return P.live ? 1 : 0;
    return P.live;
}

static void check_stop(void) {
    if (stop_at > 0 && now() >= stop_at) stop_flag = 1;
}

#define INF 1000

/* Is empty cell i dead: every line through it already holds a wrong letter? Then a letter
 * there changes no line: all moves on dead cells lead to games of the same value, and one
 * of them stands for all. */
static inline int dead_cell(int i) {
    int n = G.ntri_at[i];
    for (int k = 0; k < n; k++)
        if (P.bad[G.tri_at[i][k]] == 0) return 0;
    return 1;
}

static void sort_by_history(int *m, int n) {
    for (int a = 1; a < n; a++) {
        int x = m[a], b = a;
        uint64_t hx = history[x];
        while (b > 0 && history[m[b - 1]] < hx) {
            m[b] = m[b - 1];
            b--;
        }
        m[b] = x;
    }
}
/* enhanced transposition cutoffs from this many empty squares up */
#define ETC_MIN_EMPTIES 6

int negamax(int alpha, int beta) {
    nodes++;
    if ((nodes & 0xFFFFF) == 0) check_stop();
    if (stop_flag) return 0;
    if (P.empties == 0) return 0;
    if (G.simple) {
        if (P.threats) return 1;
        if (P.live == 0) return 0;
    } else {
        int lim = P.live;
        if (lim == 0) return 0;
        if (lim <= alpha) return lim;
        if (-lim >= beta) return -lim;
        if (beta > lim) beta = lim;
        if (alpha < -lim) alpha = -lim;
    }
    int sym;
    uint64_t key = pos_canon(&P, &sym);
    int ttmove = -1;
    Entry *e = tt_find(key);
    if (e) {
        if (e->lo >= beta) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
        if (alpha >= beta) return alpha;
        if (e->move != 255) ttmove = (G.inv[sym][e->move >> 1] << 1) | (e->move & 1);
    }
    int alpha0 = alpha;
    /* moves as (cell << 1) | (letter - 1) */
    int moves[2 * MAXN];
    int n = 0;
    int best = -INF, bestmove = -1;
    int seen_dead = 0;
    if (G.simple) {
        int unsafe = 0;
        for (int i = 0; i < G.N; i++) {
            if (P.cell[i] != EMPTY) continue;
            if (dead_cell(i)) {
                if (!seen_dead) moves[n++] = i << 1;
                seen_dead = 1;
                continue;
            }
            for (int L = LS; L <= LO; L++) {
                if (pos_unsafe(&P, i, L)) unsafe++;
                else moves[n++] = (i << 1) | (L - 1);
            }
        }
        if (n == 0) return -1;
        if (unsafe) best = -1;
        sort_by_history(moves, n);
    } else {
        int caps[2 * MAXN], safe[2 * MAXN], rest[2 * MAXN];
        int nc = 0, ns = 0, nr = 0;
        for (int i = 0; i < G.N; i++) {
            if (P.cell[i] != EMPTY) continue;
            if (dead_cell(i)) {
                if (!seen_dead) safe[ns++] = i << 1;
                seen_dead = 1;
                continue;
            }
            for (int L = LS; L <= LO; L++) {
                int m = (i << 1) | (L - 1);
                if (P.cap[i][L]) {
                    /* insertion by SOS count, most first */
                    int k = nc++;
                    while (k > 0 && P.cap[caps[k - 1] >> 1][(caps[k - 1] & 1) + 1] < P.cap[i][L]) {
                        caps[k] = caps[k - 1];
                        k--;
                    }
                    caps[k] = m;
                } else if (!pos_unsafe(&P, i, L)) {
                    safe[ns++] = m;
                } else {
                    rest[nr++] = m;
                }
            }
        }
        sort_by_history(safe, ns);
        sort_by_history(rest, nr);
        memcpy(moves, caps, nc * sizeof(int));
        memcpy(moves + nc, safe, ns * sizeof(int));
        memcpy(moves + nc + ns, rest, nr * sizeof(int));
        n = nc + ns + nr;
    }
    /* enhanced transposition cutoff: a child whose table bounds already refute the window */
    if (P.empties >= ETC_MIN_EMPTIES) {
        for (int k = 0; k < n; k++) {
            int cell = moves[k] >> 1, L = (moves[k] & 1) + 1;
            int pts = G.simple ? 0 : P.cap[cell][L];
            uint64_t ck = ~0ULL;
            for (int s = 0; s < G.nsym; s++) {
                uint64_t h = P.h[s] ^ G.zob[G.perm[s][cell]][L];
                if (h < ck) ck = h;
            }
            Entry *ce = tt_find(ck);
            if (!ce) continue;
            int v = pts ? pts + ce->lo : -ce->hi; /* a lower bound of this move's value */
            if (v >= beta) {
                tt_store(key, v, value_limit(), (G.perm[sym][cell] << 1) | (L - 1));
                return v;
            }
        }
    }
    if (ttmove >= 0) {
        for (int k = 0; k < n; k++)
            if (moves[k] == ttmove) {
                for (int j = k; j > 0; j--) moves[j] = moves[j - 1];
                moves[0] = ttmove;
                break;
            }
    }
    for (int k = 0; k < n; k++) {
        int m = moves[k];
        int cell = m >> 1, L = (m & 1) + 1;
        int pts = pos_place(&P, cell, L);
        int v;
        if (G.simple) {
            v = pts ? 1 : -negamax(-beta, -alpha);
        } else if (pts) {
            if (k == 0 || beta - alpha == 1) {
                v = pts + negamax(alpha - pts, beta - pts);
            } else {
                v = pts + negamax(alpha - pts, alpha - pts + 1);
                if (!stop_flag && v > alpha && v < beta) v = pts + negamax(alpha - pts, beta - pts);
            }
        } else {
            if (k == 0 || beta - alpha == 1) {
                v = -negamax(-beta, -alpha);
            } else {
                v = -negamax(-alpha - 1, -alpha);
                if (!stop_flag && v > alpha && v < beta) v = -negamax(-beta, -alpha);
            }
        }
        pos_unplace(&P, cell);
        if (stop_flag) return 0;
        if (v > best) {
            best = v;
            bestmove = m;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) {
                    history[m] += (uint64_t)1 << (P.empties < 40 ? P.empties : 40);
                    break;
                }
            }
        }
    }
    int lim = value_limit();
    int lo = -lim, hi = lim;
    if (best <= alpha0) hi = best;
    else if (best >= beta) lo = best;
    else lo = hi = best;
    int cm = 255;
    if (bestmove >= 0) cm = (G.perm[sym][bestmove >> 1] << 1) | (bestmove & 1);
    tt_store(key, lo, hi, cm);
    return best;
}

void history_seed(unsigned long long seed) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (int m = 0; m < 2 * MAXN; m++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        history[m] = seed ? (x & 0xFFFF) : 0;
    }
}

int solve_exact(void) {
    int lim = value_limit();
    return negamax(-lim - 1, lim + 1);
}
