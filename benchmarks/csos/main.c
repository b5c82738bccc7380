/* csos: offline SOS tools for the project's benchmarks (not part of the page).
 *
 *   csos serve                      line protocol on stdin/stdout (benchmarks/csos/driver.py):
 *       solve <g|s> <board>             -> "<value> <nodes>"
 *       moves <g|s> <board>             -> "<move>=<value> ... nodes=<n>"
 *       mcts <g|s> <board> <lead> <ms> <seed> [<max iterations>]  -> "<move> iterations=<n>"
 *       ab <g|s> <board> <lead> <depth> <seed>  -> "<move> nodes=<n>"
 *       quit
 *   csos solve <g|s> <board>        one value
 *   csos moves <g|s> <board>        value of every move
 *   csos root <R> <C> <g|s> [--tt-bits B] [--checkpoint PREFIX] [--stop-at EPOCH]
 *             [--save-every SECONDS] [--moves M1,M2,...] [--seed FILE.txt] [--threshold T]
 *                                   values (or proven bounds) of every first move of the empty
 *                                   board, resumable from PREFIX.txt / PREFIX.tt;
 *                                   --moves: only these first moves (a shard: any move of a
 *                                   symmetry class names the class; PREFIX.txt then lists only
 *                                   them); --seed: proven bounds to start from (another
 *                                   checkpoint, e.g. the merged one); --threshold T: stop each
 *                                   move once it is known whether its value is >= T (T = 1:
 *                                   "does it win?", which is all the board's value needs once
 *                                   a move worth 0 is known); --no-sym: no symmetry
 *                                   (every image its own table entry) and --order-seed N:
 *                                   another move order among equals, for a second proof
 *
 * Boards are text "S.S/.O./..." (rows from the top, '.' empty). Values as sos.ai.solver: for the
 * side to move, general = own future points - opponent's; simple = +1 / 0 / -1. A move's value
 * includes the points the move itself scores.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "board.h"
#include "peers.h"
#include "solver.h"

static int cur_R = -1, cur_C = -1, cur_simple = -1;
static int tt_bits = 22;

static double now(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec * 1e-6;
}

/* CPU seconds of this process (what a solve costs, whatever the machine's load) */
static double cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Set up P from a mode letter and board text; clears the table when the board shape or mode
 * changes (values of one shape and mode only share a table). Returns 0 or -1 with a message. */
static int setup(const char *mode, const char *text, char *err) {
    int R, C;
    unsigned char cells[MAXN];
    int simple;
    if (!strcmp(mode, "g") || !strcmp(mode, "general")) simple = 0;
    else if (!strcmp(mode, "s") || !strcmp(mode, "simple")) simple = 1;
    else {
        sprintf(err, "error mode must be g or s");
        return -1;
    }
    if (parse_board(text, &R, &C, cells) != 0) {
        sprintf(err, "error malformed board");
        return -1;
    }
    if (R != cur_R || C != cur_C || simple != cur_simple) {
        geo_init(R, C, simple);
        cur_R = R;
        cur_C = C;
        cur_simple = simple;
        if (tt_alloc(tt_bits) != 0) {
            sprintf(err, "error out of memory");
            return -1;
        }
    }
    pos_from_cells(&P, cells);
    return 0;
}

/* Value of move m from P given the child's value bounds. */
static void move_bounds(int pts, int clo, int chi, int *lo, int *hi) {
    if (G.simple && pts) {
        *lo = *hi = 1;
    } else if (pts) {
        *lo = pts + clo;
        *hi = pts + chi;
    } else {
        *lo = -chi;
        *hi = -clo;
    }
}

static int legal_moves(int *moves) {
    int n = 0;
    for (int i = 0; i < G.N; i++)
        if (P.cell[i] == EMPTY) {
            moves[n++] = i << 1;
            moves[n++] = (i << 1) | 1;
        }
    return n;
}

/* Exact value of every legal move of P (equal up to symmetry are solved once). */
static void all_moves(FILE *out) {
    int moves[2 * MAXN], n = legal_moves(moves);
    uint64_t keys[2 * MAXN];
    int pts_of[2 * MAXN], val[2 * MAXN];
    uint64_t start = nodes;
    for (int k = 0; k < n; k++) {
        int m = moves[k], sym;
        pts_of[k] = pos_place(&P, m >> 1, (m & 1) + 1);
        keys[k] = pos_canon(&P, &sym);
        int dup = -1;
        for (int j = 0; j < k; j++)
            if (keys[j] == keys[k] && pts_of[j] == pts_of[k]) {
                dup = j;
                break;
            }
        if (dup >= 0) {
            val[k] = val[dup];
        } else {
            int over = P.empties == 0 || (G.simple && pts_of[k]);
            int cv = over ? 0 : solve_exact();
            int lo, hi;
            move_bounds(pts_of[k], cv, cv, &lo, &hi);
            val[k] = lo;
        }
        pos_unplace(&P, m >> 1);
        char name[16];
        move_name(m >> 1, (m & 1) + 1, name);
        fprintf(out, "%s%s=%d", k ? " " : "", name, val[k]);
    }
    fprintf(out, " nodes=%llu\n", (unsigned long long)(nodes - start));
}

static int serve(void) {
    char line[4096], err[128];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        char cmd[16], mode[16], board[1024];
        line[strcspn(line, "\r\n")] = 0;
        if (sscanf(line, "%15s", cmd) != 1) continue;
        if (!strcmp(cmd, "quit")) break;
        if (sscanf(line, "%15s %15s %1023s", cmd, mode, board) != 3) {
            printf("error expected: <command> <g|s> <board> ...\n");
            continue;
        }
        if (setup(mode, board, err) != 0) {
            printf("%s\n", err);
            continue;
        }
        if (!strcmp(cmd, "solve")) {
            uint64_t start = nodes;
            int v = solve_exact();
            printf("%d %llu\n", v, (unsigned long long)(nodes - start));
        } else if (!strcmp(cmd, "moves")) {
            all_moves(stdout);
        } else if (!strcmp(cmd, "mcts") || !strcmp(cmd, "ab")) {
            int lead, arg;
            unsigned long long seed;
            long max_it = 0;
            int got = sscanf(line, "%*s %*s %*s %d %d %llu %ld", &lead, &arg, &seed, &max_it);
            if (got < 3) {
                printf("error expected: %s <g|s> <board> <lead> <%s> <seed>\n", cmd,
                       cmd[0] == 'm' ? "ms" : "depth");
                continue;
            }
            if (P.empties == 0) {
                printf("error no legal move\n");
                continue;
            }
            char name[16];
            if (cmd[0] == 'm') {
                long it = 0;
                int m = mcts_move(&P, lead, arg / 1000.0, max_it, seed, &it);
                move_name(m >> 1, (m & 1) + 1, name);
                printf("%s iterations=%ld\n", name, it);
            } else {
                long nn = 0;
                int m = ab_move(&P, arg, seed, &nn);
                move_name(m >> 1, (m & 1) + 1, name);
                printf("%s nodes=%ld\n", name, nn);
            }
        } else {
            printf("error unknown command %s\n", cmd);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ root solve with checkpoints */
typedef struct {
    int move, pts, lo, hi, done, sel;
    uint64_t nodes;
    double seconds;
} RootMove;

static void on_signal(int sig) {
    (void)sig;
    stop_flag = 1;
}

static void write_checkpoint(const char *prefix, RootMove *rm, int n, const char *board_text) {
    if (!prefix) return;
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s.txt", prefix);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return;
    fprintf(f, "# csos root checkpoint: board %s mode %s\n", board_text, G.simple ? "s" : "g");
    fprintf(f, "# move lo hi nodes cpu_seconds (lo == hi: exact; bounds are proven)\n");
    for (int k = 0; k < n; k++) {
        char name[16];
        if (!rm[k].sel) continue;
        move_name(rm[k].move >> 1, (rm[k].move & 1) + 1, name);
        fprintf(f, "%s %d %d %llu %.1f\n", name, rm[k].lo, rm[k].hi,
                (unsigned long long)rm[k].nodes, rm[k].seconds);
    }
    fclose(f);
    rename(tmp, path);
}

/* Read proven bounds (and the nodes and seconds spent so far) from a checkpoint file. */
static void read_checkpoint(const char *path, RootMove *rm, int n) {
    char line[256];
    FILE *f = fopen(path, "r");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        char name[16];
        int lo, hi, cell, L;
        unsigned long long nn;
        double sec;
        if (line[0] == '#') continue;
        if (sscanf(line, "%15s %d %d %llu %lf", name, &lo, &hi, &nn, &sec) != 5) continue;
        if (parse_move(name, &cell, &L) != 0) continue;
        int m = (cell << 1) | (L - 1);
        for (int k = 0; k < n; k++)
            if (rm[k].move == m) {
                if (lo > rm[k].lo) rm[k].lo = lo;
                if (hi < rm[k].hi) rm[k].hi = hi;
                rm[k].nodes = nn;
                rm[k].seconds = sec;
                rm[k].done = rm[k].lo == rm[k].hi;
            }
    }
    fclose(f);
}

static int root_cmd(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: csos root R C g|s [--board TEXT] [--tt-bits B] [--checkpoint PREFIX]"
                        " [--stop-at EPOCH] [--save-every S] [--moves M,...] [--seed FILE]"
                        " [--threshold T] [--no-sym] [--order-seed N]\n");
        return 2;
    }
    int R = atoi(argv[2]), C = atoi(argv[3]);
    const char *mode = argv[4];
    const char *prefix = NULL, *board_arg = NULL, *moves_arg = NULL, *seed = NULL;
    double save_every = 600;
    int threshold = 0, use_threshold = 0;
    unsigned long long order_seed = 0;
    for (int a = 5; a < argc; a++) {
        if (!strcmp(argv[a], "--tt-bits") && a + 1 < argc) tt_bits = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--checkpoint") && a + 1 < argc) prefix = argv[++a];
        else if (!strcmp(argv[a], "--stop-at") && a + 1 < argc) stop_at = atof(argv[++a]);
        else if (!strcmp(argv[a], "--save-every") && a + 1 < argc) save_every = atof(argv[++a]);
        else if (!strcmp(argv[a], "--board") && a + 1 < argc) board_arg = argv[++a];
        else if (!strcmp(argv[a], "--moves") && a + 1 < argc) moves_arg = argv[++a];
        else if (!strcmp(argv[a], "--no-sym")) geo_no_sym = 1;
        else if (!strcmp(argv[a], "--order-seed") && a + 1 < argc) order_seed = strtoull(argv[++a], NULL, 10);
        else if (!strcmp(argv[a], "--seed") && a + 1 < argc) seed = argv[++a];
        else if (!strcmp(argv[a], "--threshold") && a + 1 < argc) {
            threshold = atoi(argv[++a]);
            use_threshold = 1;
        }
        else {
            fprintf(stderr, "unknown option %s\n", argv[a]);
            return 2;
        }
    }
    char text[1024], err[128];
    if (board_arg) {
        snprintf(text, sizeof text, "%s", board_arg);
    } else {
        int k = 0;
        for (int r = 0; r < R; r++) {
            for (int c = 0; c < C; c++) text[k++] = '.';
            text[k++] = r + 1 < R ? '/' : 0;
        }
    }
    if (setup(mode, text, err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    history_seed(order_seed);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    if (prefix) {
        char path[4096];
        snprintf(path, sizeof path, "%s.tt", prefix);
        long loaded = tt_load(path);
        if (loaded >= 0) fprintf(stderr, "loaded %ld table entries from %s\n", loaded, path);
    }
    int moves[2 * MAXN], n = legal_moves(moves);
    RootMove rm[2 * MAXN];
    int nr = 0;
    uint64_t keys[2 * MAXN];
    for (int k = 0; k < n; k++) {
        int m = moves[k], sym;
        int pts = pos_place(&P, m >> 1, (m & 1) + 1);
        uint64_t key = pos_canon(&P, &sym);
        int lim = value_limit();
        pos_unplace(&P, m >> 1);
        int dup = 0;
        for (int j = 0; j < nr; j++)
            if (keys[j] == key && rm[j].pts == pts) dup = 1;
        if (dup) continue;
        keys[nr] = key;
        rm[nr].move = m;
        rm[nr].pts = pts;
        move_bounds(pts, -lim, lim, &rm[nr].lo, &rm[nr].hi);
        rm[nr].done = 0;
        rm[nr].nodes = 0;
        rm[nr].seconds = 0;
        rm[nr].sel = 1;
        nr++;
    }
    if (moves_arg) {
        for (int k = 0; k < nr; k++) rm[k].sel = 0;
        char list[1024];
        snprintf(list, sizeof list, "%s", moves_arg);
        for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
            int cell, L, sym;
            if (parse_move(tok, &cell, &L) != 0 || P.cell[cell] != EMPTY) {
                fprintf(stderr, "bad move %s\n", tok);
                return 2;
            }
            int pts = pos_place(&P, cell, L);
            uint64_t key = pos_canon(&P, &sym);
            pos_unplace(&P, cell);
            for (int j = 0; j < nr; j++)
                if (keys[j] == key && rm[j].pts == pts) rm[j].sel = 1;
        }
    }
    if (seed) read_checkpoint(seed, rm, nr);
    if (prefix) {
        char path[4096];
        snprintf(path, sizeof path, "%s.txt", prefix);
        read_checkpoint(path, rm, nr);
    }
    write_checkpoint(prefix, rm, nr, text);
    double last_save = now();
    if (stop_at > 0 && now() >= stop_at) stop_flag = 1;
    for (int k = 0; k < nr && !stop_flag; k++) {
        if (rm[k].done || !rm[k].sel) continue;
        if (use_threshold && (rm[k].lo >= threshold || rm[k].hi < threshold)) continue;
        int m = rm[k].move;
        int pts = pos_place(&P, m >> 1, (m & 1) + 1);
        int over = P.empties == 0 || (G.simple && pts);
        double t0 = cpu();
        uint64_t n0 = nodes;
        /* MTD(f) from 0 on the child: each null-window test proves a bound; bounds are kept */
        while (!over && rm[k].lo < rm[k].hi && !stop_flag) {
            int clo, chi; /* child's bounds from the move's */
            if (pts && !G.simple) {
                clo = rm[k].lo - pts;
                chi = rm[k].hi - pts;
            } else {
                clo = -rm[k].hi;
                chi = -rm[k].lo;
            }
            int g = 0;
            if (g < clo) g = clo;
            if (g > chi) g = chi;
            int beta = (g == clo) ? g + 1 : g;
            if (use_threshold) {
                if (rm[k].lo >= threshold || rm[k].hi < threshold) break;
                /* the one test that decides "move >= threshold" */
                beta = (pts && !G.simple) ? threshold - pts : 1 - threshold;
                if (G.simple && pts) break;
            }
            int v = negamax(beta - 1, beta);
            if (stop_flag) break;
            if (v < beta) chi = v < chi ? v : chi;
            else clo = v > clo ? v : clo;
            move_bounds(pts, clo, chi, &rm[k].lo, &rm[k].hi);
            rm[k].nodes += nodes - n0;
            rm[k].seconds += cpu() - t0;
            n0 = nodes;
            t0 = cpu();
            write_checkpoint(prefix, rm, nr, text);
            if (prefix && now() - last_save >= save_every) {
                char path[4096];
                snprintf(path, sizeof path, "%s.tt", prefix);
                tt_save(path, 6);
                last_save = now();
            }
        }
        if (over) rm[k].lo = rm[k].hi = (G.simple && pts) ? 1 : pts;
        rm[k].nodes += nodes - n0;
        rm[k].seconds += cpu() - t0;
        rm[k].done = rm[k].lo == rm[k].hi;
        pos_unplace(&P, m >> 1);
        char name[16];
        move_name(m >> 1, (m & 1) + 1, name);
        printf("%s %d %d nodes=%llu cpu_seconds=%.1f\n", name, rm[k].lo, rm[k].hi,
               (unsigned long long)rm[k].nodes, rm[k].seconds);
        fflush(stdout);
        write_checkpoint(prefix, rm, nr, text);
    }
    if (prefix) {
        char path[4096];
        snprintf(path, sizeof path, "%s.tt", prefix);
        long w = tt_save(path, 6);
        fprintf(stderr, "saved %ld table entries to %s\n", w, path);
    }
    int lo = -1000, hi = -1000, all = 1;
    uint64_t total = 0;
    double secs = 0;
    for (int k = 0; k < nr; k++) {
        if (!rm[k].sel) continue;
        if (rm[k].lo > lo) lo = rm[k].lo;
        if (rm[k].hi > hi) hi = rm[k].hi;
        all &= rm[k].done;
        total += rm[k].nodes;
        secs += rm[k].seconds;
    }
    printf("board %s %d %d %s nodes=%llu cpu_seconds=%.1f\n", G.simple ? "simple" : "general", lo, hi,
           (lo == hi) ? "exact" : (all ? "exact" : "bounds"), (unsigned long long)total, secs);
    return stop_flag ? 3 : 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "serve")) {
        if (tt_alloc(tt_bits) != 0) return 1;
        return serve();
    }
    if (argc >= 2 && !strcmp(argv[1], "root")) return root_cmd(argc, argv);
    if (argc >= 4 && (!strcmp(argv[1], "solve") || !strcmp(argv[1], "moves"))) {
        char err[128];
        if (setup(argv[2], argv[3], err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        double t0 = cpu();
        if (argv[1][0] == 's') {
            int v = solve_exact();
            printf("%d nodes=%llu cpu_seconds=%.2f\n", v, (unsigned long long)nodes, cpu() - t0);
        } else {
            all_moves(stdout);
        }
        return 0;
    }
    fprintf(stderr, "usage: csos serve | solve <g|s> <board> | moves <g|s> <board> | root R C g|s ...\n");
    return 2;
}
