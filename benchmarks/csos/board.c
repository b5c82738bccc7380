/* SOS board for the offline tools: see board.h. */
#include "board.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

Geo G;
int geo_no_sym;

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void add_at(int cell, int t, int role) {
    int k = G.ntri_at[cell]++;
    G.tri_at[cell][k] = (short)t;
    G.role_at[cell][k] = (unsigned char)role;
}

void geo_init(int R, int C, int simple) {
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    memset(&G, 0, sizeof G);
    G.R = R;
    G.C = C;
    G.N = R * C;
    G.simple = simple;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            for (int d = 0; d < 4; d++) {
                int r2 = r + 2 * dirs[d][0], c2 = c + 2 * dirs[d][1];
                if (r2 < 0 || r2 >= R || c2 < 0 || c2 >= C) continue;
                int t = G.ntri++;
                int a = r * C + c, m = (r + dirs[d][0]) * C + (c + dirs[d][1]), b = r2 * C + c2;
                G.tri[t][0] = (short)a;
                G.tri[t][1] = (short)m;
                G.tri[t][2] = (short)b;
                add_at(a, t, 0);
                add_at(m, t, 1);
                add_at(b, t, 0);
            }
    /* symmetries: (r, c) -> image; on a rectangle only those keeping the shape */
    G.nsym = geo_no_sym ? 1 : (R == C) ? 8 : 4;
    for (int s = 0; s < G.nsym; s++)
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++) {
                int rr, cc;
                switch (s) {
                case 0: rr = r; cc = c; break;
                case 1: rr = R - 1 - r; cc = c; break;
                case 2: rr = r; cc = C - 1 - c; break;
                case 3: rr = R - 1 - r; cc = C - 1 - c; break;
                case 4: rr = c; cc = r; break;
                case 5: rr = C - 1 - c; cc = r; break;
                case 6: rr = c; cc = R - 1 - r; break;
                default: rr = C - 1 - c; cc = R - 1 - r; break;
                }
                int i = r * C + c, j = rr * C + cc;
                G.perm[s][i] = (unsigned char)j;
                G.inv[s][j] = (unsigned char)i;
            }
    uint64_t seed = 0x5053534FULL + (uint64_t)(R * 64 + C) * 2 + (uint64_t)simple;
    for (int i = 0; i < G.N; i++) {
        G.zob[i][0] = 0;
        G.zob[i][1] = splitmix(&seed);
        G.zob[i][2] = splitmix(&seed);
    }
}

void pos_clear(Pos *p) {
    memset(p, 0, sizeof *p);
    p->empties = G.N;
    p->live = G.ntri;
}

static inline int need_of(int t, int cell) { return G.tri[t][1] == cell ? LO : LS; }

static inline int empty_of(const Pos *p, int t) {
    for (int k = 0; k < 3; k++)
        if (p->cell[G.tri[t][k]] == EMPTY) return G.tri[t][k];
    return -1;
}

int pos_place(Pos *p, int i, int L) {
    int pts = 0;
    p->cell[i] = (unsigned char)L;
    p->empties--;
    for (int s = 0; s < G.nsym; s++) p->h[s] ^= G.zob[G.perm[s][i]][L];
    int n = G.ntri_at[i];
    for (int k = 0; k < n; k++) {
        int t = G.tri_at[i][k];
        int want = G.role_at[i][k] ? LO : LS;
        int g = p->good[t], b = p->bad[t];
        if (b == 0) {
            if (g == 2) { /* was a threat on cell i */
                p->threats--;
                p->cap[i][want]--;
            }
            if (L == want) {
                g++;
                if (g == 3) {
                    pts++;
                    p->live--;
                } else if (g == 2) {
                    int e = empty_of(p, t);
                    p->cap[e][need_of(t, e)]++;
                    p->threats++;
                }
            } else {
                b++;
                p->live--;
            }
        } else if (L == want) {
            g++;
        } else {
            b++;
        }
        p->good[t] = (unsigned char)g;
        p->bad[t] = (unsigned char)b;
    }
    return pts;
}

void pos_unplace(Pos *p, int i) {
    int L = p->cell[i];
    int n = G.ntri_at[i];
    for (int k = 0; k < n; k++) {
        int t = G.tri_at[i][k];
        int want = G.role_at[i][k] ? LO : LS;
        int g = p->good[t], b = p->bad[t];
        if (L == want) {
            if (b == 0) {
                if (g == 3) {
                    p->live++;
                } else if (g == 2) { /* the threat on the other empty square goes */
                    int e = empty_of(p, t);
                    p->cap[e][need_of(t, e)]--;
                    p->threats--;
                }
            }
            g--;
        } else {
            b--;
            if (b == 0) p->live++;
        }
        if (b == 0 && g == 2) { /* cell i (empty again) completes it */
            p->cap[i][want]++;
            p->threats++;
        }
        p->good[t] = (unsigned char)g;
        p->bad[t] = (unsigned char)b;
    }
    p->cell[i] = EMPTY;
    p->empties++;
    for (int s = 0; s < G.nsym; s++) p->h[s] ^= G.zob[G.perm[s][i]][L];
}

int pos_unsafe(const Pos *p, int i, int L) {
    int n = G.ntri_at[i];
    for (int k = 0; k < n; k++) {
        int t = G.tri_at[i][k];
        int want = G.role_at[i][k] ? LO : LS;
        if (L == want && p->bad[t] == 0 && p->good[t] == 1) return 1;
    }
    return 0;
}

uint64_t pos_canon(const Pos *p, int *sym) {
    uint64_t best = p->h[0];
    int bs = 0;
    for (int s = 1; s < G.nsym; s++)
        if (p->h[s] < best) {
            best = p->h[s];
            bs = s;
        }
    *sym = bs;
    return best;
}

int parse_board(const char *text, int *R, int *C, unsigned char *cells) {
    int r = 0, c = 0, cols = -1, n = 0;
    for (const char *q = text;; q++) {
        char ch = *q;
        if (ch == '/' || ch == 0 || isspace((unsigned char)ch)) {
            if (cols < 0) cols = c;
            else if (c != cols) return -1;
            r++;
            c = 0;
            if (ch != '/') break;
            continue;
        }
        int L;
        if (ch == '.') L = EMPTY;
        else if (ch == 'S' || ch == 's') L = LS;
        else if (ch == 'O' || ch == 'o') L = LO;
        else return -1;
        if (c >= MAXSIDE || n >= MAXN) return -1;
        cells[n++] = (unsigned char)L;
        c++;
    }
    if (cols < 1 || r < 1 || r > MAXSIDE || (r < 3 && cols < 3)) return -1;
    *R = r;
    *C = cols;
    return 0;
}

void move_name(int i, int L, char *out) {
    sprintf(out, "%c@%c%d", L == LS ? 'S' : 'O', 'a' + i % G.C, i / G.C + 1);
}

int parse_move(const char *text, int *i, int *L) {
    char letter, col;
    int row;
    if (sscanf(text, " %c@%c%d", &letter, &col, &row) != 3) return -1;
    letter = (char)toupper((unsigned char)letter);
    if (letter != 'S' && letter != 'O') return -1;
    int c = tolower((unsigned char)col) - 'a';
    if (c < 0 || c >= G.C || row < 1 || row > G.R) return -1;
    *i = (row - 1) * G.C + c;
    *L = letter == 'S' ? LS : LO;
    return 0;
}

void pos_from_cells(Pos *p, const unsigned char *cells) {
    pos_clear(p);
    for (int i = 0; i < G.N; i++)
        if (cells[i] != EMPTY) pos_place(p, i, cells[i]);
}
