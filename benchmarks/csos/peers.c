/* Peers for strength matches (two players): UCT Monte-Carlo tree search with uniformly random
 * playouts, and a fixed-depth alpha-beta on the score difference — the two kinds of program
 * published SOS players use. Both take a position, the mover's lead in points and a seed, and
 * return one move. See peers.h.
 */
#include "peers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static double now_s(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec * 1e-6;
}

static uint64_t rng_state;
static inline uint64_t rnd(void) {
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}
static inline int rnd_below(int n) { return (int)((rnd() >> 11) % (uint64_t)n); }

/* ------------------------------------------------------------------ UCT */
typedef struct {
    int first_child, next_sibling;
    int visits;
    float wins;          /* for the player who made the move into this node */
    short move;          /* (cell << 1) | (letter - 1) */
    signed char mover;   /* 0 or 1 */
    signed char terminal;
    short nmoves, nexpanded;
    short offset;        /* first untried move: legal moves are enumerated from here */
} Node;

static Node *pool;
static int pool_size, pool_used;

static int new_node(int move, int mover, const Pos *p, int terminal) {
    if (pool_used >= pool_size) return -1;
    Node *n = &pool[pool_used];
    n->first_child = n->next_sibling = -1;
    n->visits = 0;
    n->wins = 0;
    n->move = (short)move;
    n->mover = (signed char)mover;
    n->terminal = (signed char)terminal;
    n->nmoves = terminal ? 0 : (short)(2 * p->empties);
    n->nexpanded = 0;
    n->offset = n->nmoves ? (short)rnd_below(n->nmoves) : 0;
    return pool_used++;
}

/* k-th legal move (0-based) of p: empty squares in order, S then O */
static int kth_move(const Pos *p, int k) {
    int cellk = k >> 1;
    for (int i = 0; i < G.N; i++)
        if (p->cell[i] == EMPTY) {
            if (cellk == 0) return (i << 1) | (k & 1);
            cellk--;
        }
    return -1;
}

typedef struct {
    Pos pos;
    int to_move;
    int score[2];
    int over;   /* game ended */
    int winner; /* 0, 1, or -1 draw */
} Game;

static void game_play(Game *g, int m) {
    int pts = pos_place(&g->pos, m >> 1, (m & 1) + 1);
    if (pts) {
        g->score[g->to_move] += pts;
        if (G.simple) {
            g->over = 1;
            g->winner = g->to_move;
            return;
        }
    } else {
        g->to_move ^= 1;
    }
    if (g->pos.empties == 0) {
        g->over = 1;
        if (G.simple || g->score[0] == g->score[1]) g->winner = -1;
        else g->winner = g->score[0] > g->score[1] ? 0 : 1;
    }
}

static void playout(Game *g) {
    int empty[MAXN], n = 0;
    for (int i = 0; i < G.N; i++)
        if (g->pos.cell[i] == EMPTY) empty[n++] = i;
    while (!g->over) {
        int k = rnd_below(n);
        int cell = empty[k];
        empty[k] = empty[--n];
        game_play(g, (cell << 1) | (int)(rnd() & 1));
    }
}

int mcts_move(const Pos *root, int lead, double seconds, long max_iterations, uint64_t seed,
              long *iterations) {
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 12345;
    if (!rng_state) rng_state = 1;
    if (!pool) {
        pool_size = 1 << 22;
        pool = malloc(sizeof(Node) * (size_t)pool_size);
    }
    pool_used = 0;
    int rootn = new_node(-1, 1, root, 0);
    const double c = 1.0;
    double t_end = now_s() + seconds;
    long it = 0;
    int path[2 * MAXN + 2];
    for (;; it++) {
        if (max_iterations > 0 && it >= max_iterations) break;
        if (seconds > 0 && (it & 255) == 0 && it > 0 && now_s() >= t_end) break;
        Game g;
        memcpy(&g.pos, root, sizeof(Pos));
        g.to_move = 0;
        g.score[0] = lead > 0 ? lead : 0;
        g.score[1] = lead < 0 ? -lead : 0;
        g.over = 0;
        g.winner = -1;
        int depth = 0;
        int cur = rootn;
        path[depth++] = cur;
        /* selection and expansion */
        while (!g.over) {
            Node *n = &pool[cur];
            if (n->nexpanded < n->nmoves) {
                int k = (n->offset + n->nexpanded) % n->nmoves;
                int m = kth_move(&g.pos, k);
                int mover = g.to_move;
                game_play(&g, m);
                int child = new_node(m, mover, &g.pos, g.over);
                if (child < 0) break; /* pool full: play out from here */
                n = &pool[cur];
                n->nexpanded++;
                pool[child].next_sibling = n->first_child;
                n->first_child = child;
                cur = child;
                path[depth++] = cur;
                break;
            }
            double logn = log((double)n->visits + 1.0);
            int best = -1;
            double bestu = -1e30;
            for (int ch = n->first_child; ch >= 0; ch = pool[ch].next_sibling) {
                Node *cn = &pool[ch];
                double u = cn->wins / cn->visits + c * sqrt(logn / cn->visits);
                if (u > bestu) {
                    bestu = u;
                    best = ch;
                }
            }
            if (best < 0) break;
            game_play(&g, pool[best].move);
            cur = best;
            path[depth++] = cur;
        }
        playout(&g);
        for (int d = 0; d < depth; d++) {
            Node *n = &pool[path[d]];
            n->visits++;
            if (g.winner < 0) n->wins += 0.5f;
            else if (g.winner == n->mover) n->wins += 1.0f;
        }
    }
    if (iterations) *iterations = it;
    int best = -1, bestv = -1;
    for (int ch = pool[rootn].first_child; ch >= 0; ch = pool[ch].next_sibling)
        if (pool[ch].visits > bestv) {
            bestv = pool[ch].visits;
            best = pool[ch].move;
        }
    return best;
}

/* ------------------------------------------------------------------ depth-limited alpha-beta */
#define WIN 10000
static long ab_nodes;

static int gen_ordered(const Pos *p, int *moves) {
    int n = 0, nc = 0;
    int rest[2 * MAXN], nr = 0, safe[2 * MAXN], ns = 0;
    for (int i = 0; i < G.N; i++) {
        if (p->cell[i] != EMPTY) continue;
        for (int L = LS; L <= LO; L++) {
            int m = (i << 1) | (L - 1);
            if (p->cap[i][L]) moves[nc++] = m;
            else if (!pos_unsafe(p, i, L)) safe[ns++] = m;
            else rest[nr++] = m;
        }
    }
    n = nc;
    memcpy(moves + n, safe, ns * sizeof(int));
    n += ns;
    memcpy(moves + n, rest, nr * sizeof(int));
    return n + nr;
}

static int ab_search(Pos *p, int depth, int alpha, int beta) {
    ab_nodes++;
    if (p->empties == 0 || depth == 0) return 0;
    if (G.simple && p->threats) return WIN;
    int moves[2 * MAXN];
    int n = gen_ordered(p, moves);
    int best = -WIN - 1;
    for (int k = 0; k < n; k++) {
        int m = moves[k];
        int pts = pos_place(p, m >> 1, (m & 1) + 1);
        int v;
        if (pts && G.simple) v = WIN;
        else if (pts) v = pts + ab_search(p, depth - 1, alpha - pts, beta - pts);
        else v = -ab_search(p, depth - 1, -beta, -alpha);
        pos_unplace(p, m >> 1);
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

int ab_move(const Pos *root, int depth, uint64_t seed, long *nodes_out) {
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 999;
    if (!rng_state) rng_state = 1;
    Pos p;
    memcpy(&p, root, sizeof p);
    int moves[2 * MAXN];
    int n = 0;
    for (int i = 0; i < G.N; i++)
        if (p.cell[i] == EMPTY) {
            moves[n++] = i << 1;
            moves[n++] = (i << 1) | 1;
        }
    /* random order among equals: shuffle, then stable-sort captures first */
    for (int k = n - 1; k > 0; k--) {
        int j = rnd_below(k + 1);
        int t = moves[k];
        moves[k] = moves[j];
        moves[j] = t;
    }
    int ordered[2 * MAXN], no = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int k = 0; k < n; k++) {
            int i = moves[k] >> 1, L = (moves[k] & 1) + 1;
            int cls = p.cap[i][L] ? 0 : (!pos_unsafe(&p, i, L) ? 1 : 2);
            if (cls == pass) ordered[no++] = moves[k];
        }
    ab_nodes = 0;
    int best = -WIN - 1, bestm = ordered[0];
    for (int k = 0; k < no; k++) {
        int m = ordered[k];
        int pts = pos_place(&p, m >> 1, (m & 1) + 1);
        int v;
        if (pts && G.simple) v = WIN;
        else if (pts) v = pts + ab_search(&p, depth - 1, best - pts, WIN + 1 - pts);
        else v = -ab_search(&p, depth - 1, -WIN - 1, -best);
        pos_unplace(&p, m >> 1);
        if (v > best) {
            best = v;
            bestm = m;
        }
    }
    if (nodes_out) *nodes_out = ab_nodes;
    return bestm;
}
