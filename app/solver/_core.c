/* The solver's compiled core: board.py's Problem and search.py's Solver in C.
 *
 * Same moves (same priority classes, generated in the same order), the same
 * settling (autocomplete, safe foundation moves, protected cards), the same
 * dead-end test, keys and values, and the same search: depth-first with a
 * transposition table, restarts alternating the fixed order with shuffled
 * ones (many short ones under draw 1 with a pass limit), and Tarjan
 * components proved lost kept across searches. Every
 * soundness argument lives in board.py and search.py, beside the Python
 * reference this file mirrors; tests/solver/test_core.py checks the two
 * against each other, state by state.
 *
 * Two more dead-end tests than the Python had at first, now in both: see
 * board.py's `_deadlocked`.
 *
 * Representation. A state's columns are packed into 52 bytes (column 0 first)
 * for storage, and unpacked for work. The talon is a bit mask over the search
 * root's talon order (cards only ever leave the talon, and recycling keeps the
 * order), plus the same cards as card bits for the key; `pointer` counts the
 * remaining cards in the waste, as in board.py. A frame of the depth-first path
 * keeps its state and, for each child, only the step, key and value; a child is
 * played again from its parent when entered (`child_of`). Only the frames nearest
 * the top keep their children: deeper paths give up those of the frames nearest the
 * root, made again from their states when the search comes back (`shed`, `regrow`).
 *
 * Memory. The run's table (key -> index), the per-index records and the table of
 * states proved lost hold one entry per node; the tables double at half full.
 * About 60-130 bytes a node in all (16 a slot), so the node budget mostly bounds memory;
 * a path that runs very deep holds more (a frame, 136 bytes, and the open state's entry
 * and record for each move), so a search also stops at its memory limit.
 *
 * Keys. board.py's key is (sorted columns, talon, pointer class, reserve
 * count, protected). Here it is a 128-bit fingerprint made by two independent
 * 64-bit mixes: the columns as a multiset (a sum of strongly mixed column
 * hashes), the talon as its set of cards, then the rest. The talon's card set
 * stands for its sequence because every talon one Core meets is a subsequence
 * of one dealing order (`Core.search` checks it, and forgets its proofs when a
 * root from another order comes). The tables keep 96 of its bits (`Slot`): a
 * look-up takes one key for another with a chance of 2^-96 per slot compared, so
 * an "unwinnable" verdict is a proof up to that chance (below 1e-17 over 10^11
 * slots compared, far more than any search here makes).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

enum { TO_FOUNDATION, FROM_RESERVE, EMPTIES_COLUMN, FROM_TALON, IN_TABLEAU, FROM_FOUNDATION,
       NEXT_PASS };
#define FOUNDATION (-1)
#define MODE_ANY_RUN 0
#define MODE_TOP_OR_ALL 1
#define MODE_ALL 2
#define ALL_CARDS ((1ULL << 52) - 1)
#define FIRST_RUN_NODES 2000 /* search.Solver.FIRST_RUN_NODES */
#define SHORT_RUN_NODES 1000 /* search.Solver.SHORT_RUN_NODES */
#define SHUFFLED_DEPTH 3      /* search.SHUFFLED_DEPTH */
#define MAX_CHILDREN 512
#define PATH_CHILDREN (1 << 18) /* children the path holds, about (`shed`): 8 MiB */

/* -- card tables --------------------------------------------------------------------- */

static int PARENT[52][2]; /* the two cards each card goes on, ascending */
static uint64_t PARENTS[52]; /* the same, as card bits */
static int CHILD[52][2];  /* the two cards that go on each card, ascending */
static uint64_t CHILDREN[52]; /* the same, as card bits */
static const int OTHER_COLOUR[4][2] = {{1, 2}, {0, 3}, {0, 3}, {1, 2}};
static const int TWIN_SUIT[4] = {3, 2, 1, 0};

static int is_red(int card) { return card / 13 == 1 || card / 13 == 2; }
static uint8_t TWIN[52]; /* the card of the same rank in the other suit of its colour */

static void init_tables(void) {
    for (int c = 0; c < 52; c++) {
        int n = 0;
        for (int p = 0; p < 52; p++)
            if (is_red(p) != is_red(c) && (c % 13 + 1) % 13 == p % 13) PARENT[c][n++] = p;
        PARENTS[c] = 1ULL << PARENT[c][0] | 1ULL << PARENT[c][1];
    }
    for (int p = 0; p < 52; p++) {
        int n = 0;
        for (int c = 0; c < 52; c++)
            if (PARENT[c][0] == p || PARENT[c][1] == p) CHILD[p][n++] = c;
        CHILDREN[p] = 1ULL << CHILD[p][0] | 1ULL << CHILD[p][1];
    }
    for (int c = 0; c < 52; c++) TWIN[c] = (uint8_t)(TWIN_SUIT[c / 13] * 13 + c % 13);
}

/* -- states ---------------------------------------------------------------------------- */

typedef struct {
    uint64_t talon; /* positions in the search's talon order */
    uint64_t cards; /* the same cards, as card bits */
    uint64_t prot;  /* protected cards */
    int32_t pass;
    uint8_t len[4];
    uint8_t found[4];
    uint8_t pointer;
    uint8_t reserve;
    uint8_t col[4][56]; /* 52 cards at most, and room to copy in 8-byte words */
} Work;

typedef struct {
    uint64_t talon, cards, prot;
    int32_t pass;
    uint8_t len[4];
    uint8_t found[4];
    uint8_t pointer;
    uint8_t reserve;
    uint8_t packed[60]; /* the columns one after another, and room for 8-byte words */
} Packed;

typedef struct {
    uint64_t a, b; /* the fingerprint; a is never 0 */
} Fp;

/* A step from a state, with what the search needs before it enters the result: the
   state itself is made again from its parent's when entered (`child_of`), which keeps a
   deep search's path small. */
typedef struct {
    Fp key;
    int32_t value;
    int16_t draws;
    int8_t priority;
    int8_t card;
    int8_t target;
    uint8_t added; /* the step turned the waste over (with limited passes) */
    uint8_t won;
    uint8_t weakest; /* `dominated` may prune it: looked up when its turn comes */
    uint8_t earlier; /* `passed` may prune it (a PASSED_ kind): looked up likewise */
} Child;

/* Copies n bytes (at most 52) in 8-byte words: both sides have room for the last one. */
static void copy_words(uint8_t *to, const uint8_t *from, int n) {
    for (int k = 0; k < n; k += 8) memcpy(to + k, from + k, 8);
}

static void pack(const Work *w, Packed *p) {
    p->talon = w->talon;
    p->cards = w->cards;
    p->prot = w->prot;
    p->pass = w->pass;
    p->pointer = w->pointer;
    p->reserve = w->reserve;
    memcpy(p->found, w->found, 4);
    memcpy(p->len, w->len, 4);
    int k = 0;
    for (int i = 0; i < 4; i++) {
        copy_words(p->packed + k, w->col[i], w->len[i]);
        k += w->len[i];
    }
}

static void unpack(const Packed *p, Work *w) {
    w->talon = p->talon;
    w->cards = p->cards;
    w->prot = p->prot;
    w->pass = p->pass;
    w->pointer = p->pointer;
    w->reserve = p->reserve;
    memcpy(w->found, p->found, 4);
    memcpy(w->len, p->len, 4);
    int k = 0;
    for (int i = 0; i < 4; i++) {
        copy_words(w->col[i], p->packed + k, p->len[i]);
        k += p->len[i];
    }
}

/* -- the problem ----------------------------------------------------------------------- */

typedef struct {
    int draw, passes; /* passes < 0: unlimited */
    int mode, empty_any, returns, autocomplete;
    int start_rank;
    int reserve_size;
    uint8_t reserve[52];
    uint8_t rel[52];
    uint16_t rank_bit[52];      /* 1 << rel */
    uint64_t reserve_mask[53]; /* by reserve count: its cards */
    uint64_t from[52];         /* the cards of each card's suit from it up (from the start rank) */
    uint64_t below[52];        /* and those below it (`suit_below`) */
    uint64_t frozen_by[53];    /* by reserve count: its cards' suits from them up */
    uint64_t start_cards;      /* the start rank's four cards */
    int lookahead, certain;    /* the reserve test's (board.Problem.reserve_stuck) */
    /* the talon order of the current search (or of the state being converted) */
    int order_size;
    uint8_t order[64];
    uint64_t salt; /* tells this problem and talon order apart (`runs_needed`'s memo) */
    size_t path_children; /* children the path holds at most, about (`shed`) */
    int64_t beam_after, beam_first; /* one thread's beams (`one_beam`): BEAM_FAIR_GO and
                                       BEAM_FIRST_WIDTH, or a test's */
    uint64_t opening; /* Core.opening: the search is that one shuffled run (0: the schedule) */
    int64_t leave_every; /* Core.leave_every: a test's; each run also leaves every n-th fresh
                            child for last (`advance`) as if the other thread were in it */
    int8_t order_at[52]; /* each card's place in `order`, -1 if none (`order_places`) */
    int covered_off; /* Core.covered_memo False: `top_covered` remembers nothing */
} Rules;

static int top_of(const Work *w, int j) { return w->len[j] ? w->col[j][w->len[j] - 1] : -1; }

static int column_with_top(const Work *w, int card) {
    for (int j = 0; j < 4; j++)
        if (w->len[j] && w->col[j][w->len[j] - 1] == card) return j;
    return -1;
}

/* The bits set in x: __builtin_popcountll is a call into libgcc unless the build may
   use the popcnt instruction, which it does not assume; so on x86-64 the instruction
   where the processor has it (told when the module loads), else the sum in steps. */
#if defined(__x86_64__) && defined(__GNUC__)
static int has_popcnt;
#endif

static int bit_count(uint64_t x) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_expect(has_popcnt, 1)) {
        uint64_t n;
        __asm__("popcnt %1, %0" : "=r"(n) : "rm"(x) : "cc");
        return (int)n;
    }
#endif
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static int talon_size(const Work *w) { return bit_count(w->talon); }

/* The remaining talon: its cards and their positions in the order, waste first. */
static int talon_cards(const Rules *r, const Work *w, uint8_t *cards, uint8_t *positions) {
    int n = 0;
    uint64_t m = w->talon;
    while (m) {
        int pos = __builtin_ctzll(m);
        m &= m - 1;
        positions[n] = (uint8_t)pos;
        cards[n++] = r->order[pos];
    }
    return n;
}

static void take_from_talon(Work *w, int position, int card) {
    w->talon &= ~(1ULL << position);
    w->cards &= ~(1ULL << card);
}

typedef struct {
    int q, draws, added;
} Reach;

/* board.Problem.reach */
static int reach(const Rules *r, int pointer, int size, int pass, Reach *out) {
    int can_recycle = r->passes < 0 || pass < r->passes;
    int n = 0;
    uint64_t seen = 0;
    if (pointer > 0) {
        out[n++] = (Reach){pointer, 0, 0};
        seen |= 1ULL << pointer;
    }
    int q = pointer, draws = 0;
    while (q < size) {
        q = q + r->draw < size ? q + r->draw : size;
        draws++;
        out[n++] = (Reach){q, draws, 0};
        seen |= 1ULL << q;
    }
    if (size && can_recycle) {
        draws++;
        int added = r->passes < 0 ? 0 : 1;
        q = 0;
        while (q < size) {
            q = q + r->draw < size ? q + r->draw : size;
            draws++;
            if (!(seen & (1ULL << q))) out[n++] = (Reach){q, draws, added};
        }
    }
    return n;
}

/* `reach`'s steps to the talon's `wanted` cards alone, drawing one with unlimited passes,
   where it reaches every card: the q-th card (from the waste's first) in draws from the
   pointer p, 0 for the waste's top, q - p past it, and past the turn of the waste after
   the talon's s cards, s - p + 1 + q; in `reach`'s order, by draws. Each step's card and
   its position in the talon order go in cards[q - 1] and positions[q - 1] (`talon_cards`);
   their count. */
static int reach_wanted(const Rules *r, const Work *w, uint64_t wanted, uint8_t *cards,
                        uint8_t *positions, Reach *out) {
    int n = 0, p = w->pointer, s = bit_count(w->talon);
    for (uint64_t x = wanted & w->cards; x; x &= x - 1) {
        int card = __builtin_ctzll(x), position = r->order_at[card];
        int q = bit_count(w->talon & ((1ULL << position) - 1)) + 1;
        int draws = q > p ? q - p : q == p ? 0 : s - p + 1 + q, k = n++;
        for (; k > 0 && out[k - 1].draws > draws; k--) out[k] = out[k - 1];
        out[k] = (Reach){q, draws, 0};
        cards[q - 1] = (uint8_t)card;
        positions[q - 1] = (uint8_t)position;
    }
    return n;
}

/* board.Problem._lift: column i cut at s, refilled from the reserve if emptied. */
static void lift(const Rules *r, Work *w, int i, int s) {
    w->len[i] = (uint8_t)s;
    if (!s && w->reserve) {
        w->reserve--;
        w->col[i][0] = r->reserve[w->reserve];
        w->len[i] = 1;
    }
}

static void put(Work *w, int j, int card) { w->col[j][w->len[j]++] = (uint8_t)card; }

/* board.Problem._unused */
static int unused(const Rules *r, int card, const uint8_t *found) {
    int rank = r->rel[card], suit = card / 13;
    int s1 = OTHER_COLOUR[suit][0], s2 = OTHER_COLOUR[suit][1];
    if (found[s1] >= rank && found[s2] >= rank)
        return rank > 0 || (found[s1] == 13 && found[s2] == 13);
    int twin = TWIN_SUIT[suit];
    return rank >= 3 && found[s1] >= rank - 1 && found[s2] >= rank - 1 &&
           found[twin] >= rank - 2;
}

/* Whether `card` is next on its foundation, with the counts `found`. */
static int next_up(const Rules *r, const uint8_t *found, int card) {
    return found[card / 13] == r->rel[card];
}

static int goes_up(const Rules *r, const Work *w, int card) { return next_up(r, w->found, card); }

static void up_from_column(const Rules *r, Work *w, int i) {
    int card = w->col[i][w->len[i] - 1];
    lift(r, w, i, w->len[i] - 1);
    w->found[card / 13]++;
}

/* board.Problem._safe_step: one safe foundation move, in place; 0 if none. */
static int safe_step(const Rules *r, Work *w) {
    if (r->returns) {
        int alone_ok = !w->reserve && r->empty_any;
        for (int i = 0; i < 4; i++) {
            int n = w->len[i];
            if (!n) continue;
            int card = w->col[i][n - 1];
            if (!goes_up(r, w, card) || (w->prot & (1ULL << card))) continue;
            if (n == 1) {
                if (!alone_ok) continue;
            } else {
                int under = w->col[i][n - 2];
                if (under != PARENT[card][0] && under != PARENT[card][1]) continue;
            }
            up_from_column(r, w, i);
            return 1;
        }
        return 0;
    }
    if (w->reserve && !r->autocomplete) {
        int card = r->reserve[w->reserve - 1];
        if (goes_up(r, w, card) && unused(r, card, w->found)) {
            w->found[card / 13]++;
            w->reserve--;
            return 1;
        }
    }
    for (int i = 0; i < 4; i++) {
        int n = w->len[i];
        if (!n) continue;
        int card = w->col[i][n - 1];
        if (!goes_up(r, w, card) || !unused(r, card, w->found)) continue;
        if (r->autocomplete && n == 1 && w->reserve) continue;
        up_from_column(r, w, i);
        return 1;
    }
    if (r->draw == 1 && w->talon && !r->autocomplete) {
        uint8_t cards[64], positions[64];
        int size = talon_cards(r, w, cards, positions);
        Reach candidates[160];
        int n;
        if (r->passes < 0) {
            n = reach(r, w->pointer, size, w->pass, candidates);
        } else {
            n = 0;
            if (w->pointer) candidates[n++] = (Reach){w->pointer, 0, 0};
        }
        for (int k = 0; k < n; k++) {
            int q = candidates[k].q, card = cards[q - 1];
            if (!goes_up(r, w, card) || !unused(r, card, w->found)) continue;
            w->found[card / 13]++;
            take_from_talon(w, positions[q - 1], card);
            w->pointer = (uint8_t)(q - 1);
            w->pass += candidates[k].added;
            return 1;
        }
    }
    return 0;
}

static void autocomplete(const Rules *r, Work *w) {
    int moved = 1;
    while (moved) {
        moved = 0;
        for (int i = 0; i < 4; i++) {
            while (w->len[i] && goes_up(r, w, w->col[i][w->len[i] - 1])) {
                w->found[w->col[i][w->len[i] - 1] / 13]++;
                w->len[i]--;
                moved = 1;
            }
        }
    }
}

/* board.MARK_SHIFT: under placements_wait_app the marked talon card is card + 1 in `prot`'s
   bits from here on, above the cards back from their foundations. */
#define MARK_SHIFT 52
#define CARD_BITS ((1ULL << MARK_SHIFT) - 1)

/* board._kept_mark: the mark in `prot`, if the card it names is among `tops`; else 0. */
static uint64_t kept_mark(uint64_t prot, uint64_t tops) {
    int card = (int)(prot >> MARK_SHIFT) - 1;
    return card >= 0 && (tops >> card & 1) ? prot & ~CARD_BITS : 0;
}

/* board.Problem.settle */
static void settle(const Rules *r, Work *w, int cascade) {
    if (w->prot) {
        uint64_t tops = 0;
        for (int i = 0; i < 4; i++)
            if (w->len[i]) tops |= 1ULL << w->col[i][w->len[i] - 1];
        w->prot &= tops | kept_mark(w->prot, tops);
    }
    for (;;) {
        if (cascade && r->autocomplete && !w->talon && !w->reserve) autocomplete(r, w);
        cascade = 1;
        if (!safe_step(r, w)) return;
    }
}

/* Each suit's cards in `cards`, by rank from the start rank, as `deadlocked` keeps them. */
static void ranks_of(const Rules *r, uint64_t cards, unsigned *left) {
    for (int suit = 0; suit < 4; suit++) {
        unsigned ranks = (unsigned)(cards >> (13 * suit)) & 0x1fff; /* by rank */
        left[suit] = (ranks >> r->start_rank | ranks << (13 - r->start_rank)) & 0x1fff;
    }
}

/* `deadlocked`'s play-out: send up any column's last card that is the lowest of its suit
   still in the columns (`left`, per suit by rank from the start rank; `ends`: each column's
   length); whether cards are left then. */
static int cards_left(const Rules *r, const uint8_t *const *cols, int *ends, int count,
                      unsigned *left) {
    int moved = 1;
    while (moved) {
        moved = 0;
        for (int i = 0; i < count; i++)
            while (ends[i]) {
                int card = cols[i][ends[i] - 1];
                unsigned ranks = left[card / 13];
                if ((ranks & -ranks) != r->rank_bit[card]) break;
                left[card / 13] = ranks & (ranks - 1);
                ends[i]--;
                moved = 1;
            }
    }
    for (int i = 0; i < count; i++)
        if (ends[i]) return 1;
    return 0;
}

/* board.Problem._deadlocked */
static int deadlocked(const Rules *r, const Work *w) {
    /* The columns hold every card not in the talon, the reserve or on a foundation. */
    uint64_t elsewhere = w->cards | r->reserve_mask[w->reserve];
    /* Columns are built down (counting from the start rank, each card one lower than the
       one under it), except on a start-rank card: without one under another card, no card
       lies above a lower one. */
    int rises = 0;
    for (int suit = 0; suit < 4 && !rises; suit++) {
        int start = suit * 13 + r->start_rank;
        if (w->found[suit] || (elsewhere >> start & 1)) continue;
        rises = column_with_top(w, start) < 0;
    }
    if (!rises) return 0;
    unsigned left[4];
    int ends[4];
    ranks_of(r, ~elsewhere, left);
    for (int suit = 0; suit < 4; suit++)
        left[suit] &= ~((1u << w->found[suit]) - 1); /* off the foundation */
    const uint8_t *cols[4];
    for (int i = 0; i < 4; i++) {
        cols[i] = w->col[i];
        ends[i] = w->len[i];
    }
    return cards_left(r, cols, ends, 4, left);
}

#define LOOKAHEAD 5     /* board.RESERVE_LOOKAHEAD */
#define CERTAIN 1       /* board.RESERVE_CERTAIN */
#define MAX_LOOKAHEAD 8 /* board.MAX_RESERVE_LOOKAHEAD */
#define MAX_RUNS (4 + MAX_LOOKAHEAD) /* each level adds a run at most */
#define MAX_PIECES (MAX_RUNS + 1) /* `refill_dead`'s columns: the runs, one piece more */
#define COLUMNS 4 /* board.COLUMNS */

/* Column cards as the reserve test sees them: runs of cards, the first four of them the
   columns from their first card (the others lie somewhere on top of a column);
   below[i][k]: run i's cards under index k, as card bits; `firsts`: the columns' first
   cards; `in`: the cards of all runs (kept by `columns_as_runs` and `doomed`, and by the
   top-or-all test's ways: `top_run_with`). */
typedef struct {
    uint64_t firsts, in;
    int count;
    int len[MAX_RUNS];
    const uint8_t *cards[MAX_RUNS];
    const uint64_t *below[MAX_RUNS];
} Runs;

/* A run made for one case: its cards (52 at most, and room to copy in 8-byte words) and
   their masks. */
typedef struct {
    uint8_t cards[64];
    uint64_t below[56];
} Made;

static void make_below(const uint8_t *cards, int from, int to, uint64_t *below) {
    for (int k = from; k < to; k++) below[k + 1] = below[k] | 1ULL << cards[k];
}

/* The frozen cards of a reserve test's moment and each run's highest frozen one: `freeze`'s
   answer. cover[i]: run i's highest frozen card's index (0 if none above its first card);
   last[i]: run i's cards from it up, none frozen but it (all of them if none is). */
typedef struct {
    uint64_t frozen;
    int cover[MAX_RUNS];
    uint64_t last[MAX_RUNS];
} Frozen;

/* For `freeze`: run i's highest frozen card is now its cover; the cards under it. */
static uint64_t cover_run(const Runs *p, int i, Frozen *f) {
    int k = p->len[i] - 1;
    while (!(f->frozen >> p->cards[i][k] & 1)) k--;
    f->cover[i] = k;
    f->last[i] = p->below[i][p->len[i]] & ~p->below[i][k];
    return p->below[i][k];
}

/* board.Problem._freeze: f->frozen closed under "a card under a frozen one, and its suit from
   it up", with the runs in `changed` (bits by run index) looked at afresh and the others'
   cover and last taken as they are. With every run changed and f->frozen closed under the
   suits (`frozen_by`), the same as Python's from the start. f may also hold the answer for
   other runs that differ from p only in the runs in `changed`, every card those lost lying
   above its run's highest frozen card (`frozen_after`): every card frozen there is frozen
   here by the same steps, so the closure from it is the same, at the cost of the changed
   runs only. */
static void freeze(const Rules *r, const Runs *p, Frozen *f, unsigned changed) {
    /* After a round no card above a run's cover is frozen, so the next round looks only at
       the runs above whose cover the round froze a card (the cover was frozen before). */
    uint64_t added = 0;
    for (; changed; changed &= changed - 1) {
        int i = __builtin_ctz(changed);
        uint64_t all = p->below[i][p->len[i]];
        f->cover[i] = 0;
        f->last[i] = all;
        if (all & ~p->below[i][1] & f->frozen) added |= cover_run(p, i, f);
    }
    for (;;) {
        added &= ~f->frozen;
        if (!added) return;
        uint64_t was = f->frozen, frozen = was;
        for (uint64_t x = added; x; x &= x - 1) frozen |= r->from[__builtin_ctzll(x)];
        f->frozen = frozen;
        uint64_t fresh = frozen & ~was;
        added = 0;
        for (int i = 0; i < p->count; i++)
            if (f->last[i] & fresh) added |= cover_run(p, i, f);
    }
}

/* Every run of p, as a bit set for `freeze`. */
static unsigned all_runs(const Runs *p) { return (1u << p->count) - 1; }

/* board.Problem._certain_deadlock: the cards frozen, or under a frozen one, stay in their
   runs' order until the moment the test speaks of, and after it until they go up; if those
   cards alone can never all go up (`deadlocked`), no line wins. A run is built down, so a
   card lies right on a lower one only on a start-rank card: without one under another
   card, no proof (the card masks then spare a look at each card). */
static int certain_deadlock(const Rules *r, const Runs *p, uint64_t frozen, const int *cover) {
    /* The cards under a run's highest frozen card are frozen (`freeze`), so without a frozen
       start-rank card none lies under another card: the common case, told at once. */
    if (!(frozen & r->start_cards)) return 0;
    int rises = 0, ends[MAX_RUNS];
    uint64_t stay = 0;
    for (int i = 0; i < p->count; i++) {
        ends[i] = frozen >> p->cards[i][cover[i]] & 1 ? cover[i] + 1 : 0;
        if (!ends[i]) continue;
        stay |= p->below[i][ends[i]];
        rises |= (p->below[i][ends[i] - 1] & r->start_cards) != 0;
    }
    if (!rises) return 0;
    unsigned left[4];
    ranks_of(r, stay, left);
    return cards_left(r, p->cards, ends, p->count, left);
}

/* board._children_of: the cards that go on any of `cards`, one rank lower in the other
   colour. */
static inline __attribute__((always_inline)) uint64_t children_of(uint64_t cards) {
    uint64_t red = (cards >> 13 | cards >> 26) & 0x1fff, black = (cards | cards >> 39) & 0x1fff;
    red = (red >> 1 | red << 12) & 0x1fff;
    black = (black >> 1 | black << 12) & 0x1fff;
    return red | red << 39 | black << 13 | black << 26;
}

/* board.Problem._last_cards: the cards that can be a last card while the frozen ones stay:
   `seeds` that are not under a frozen card, the runs' cards from their highest frozen one
   up, and the talon's cards that fit on one of those (stops early once one is in `stop`). */
static uint64_t last_cards(const Runs *p, const Frozen *fz, uint64_t seeds, uint64_t talon,
                           uint64_t stop) {
    uint64_t last = 0;
    for (int i = 0; i < p->count; i++) last |= fz->last[i];
    uint64_t under = p->in & ~last;
    last |= seeds & ~under;
    talon &= ~under & ~last;
    for (uint64_t fresh = last; fresh && !(last & stop);) {
        fresh = children_of(fresh) & talon;
        last |= fresh;
        talon &= ~fresh;
    }
    return last;
}

/* The cards of `card`'s suit below it (board.Problem._can_go_up: none of them frozen). */
static uint64_t suit_below(const Rules *r, int card) { return r->below[card]; }

/* board.Problem._top_stays: whether the reserve's top (of n cards) can never leave, with
   runs p (`fz`: their frozen cards while the n stay), the talon's cards and the `seeds`
   that may be last cards too. */
static int top_stays(const Rules *r, const Runs *p, const Frozen *fz, int n, uint64_t talon,
                     uint64_t seeds, int linked) {
    int t = r->reserve[n - 1];
    uint64_t frozen = fz->frozen;
    const int *cover = fz->cover;
    if (linked && certain_deadlock(r, p, frozen, cover)) return 1;
    if (!(frozen & suit_below(r, t))) return 0; /* t can go up */
    uint64_t exits = PARENTS[t];
    for (int i = 0; i < 4; i++) {
        if (!(frozen >> p->cards[i][0] & 1)) return 0; /* the column can go up */
        exits |= PARENTS[p->cards[i][0]];
    }
    return !(last_cards(p, fz, seeds, talon, exits) & exits);
}

/* The run that holds `card`, or -1. */
static int run_with(const Runs *p, int card) {
    for (int j = 0; j < p->count; j++)
        if (p->below[j][p->len[j]] >> card & 1) return j;
    return -1;
}

/* board._put_on: puts `more` (m cards) on card e, on its run j (`run_with`), cut after it,
   or, if e is in none (j < 0), as a new run on top of some column, e first; the run's
   index. */
static inline __attribute__((always_inline)) int put_on_run(Runs *p, int j, int e,
                                                         const uint8_t *more, int m, Made *made) {
    int q = 0;
    uint64_t *below = made->below;
    below[0] = 0;
    if (j >= 0) { /* its cards up to e, and their masks, as they are */
        const uint8_t *cards = p->cards[j];
        const uint64_t *was = p->below[j];
        for (;; q++) {
            made->cards[q] = cards[q];
            below[q + 1] = was[q + 1];
            if (cards[q] == e) break;
        }
    } else {
        j = p->count++;
        made->cards[0] = (uint8_t)e;
        below[1] = 1ULL << e;
    }
    for (int k = 0; k < m; k++) {
        int card = more[k];
        made->cards[q + 1 + k] = (uint8_t)card;
        below[q + 2 + k] = below[q + 1 + k] | 1ULL << card;
    }
    p->cards[j] = made->cards;
    p->below[j] = below;
    p->len[j] = q + 1 + m;
    return j;
}

/* One run's fields, kept to be put back. */
typedef struct {
    int len;
    const uint8_t *cards;
    const uint64_t *below;
} Kept;

static void keep(const Runs *p, int i, Kept *k) {
    k->len = p->len[i];
    k->cards = p->cards[i];
    k->below = p->below[i];
}

static void put_back(Runs *p, int i, const Kept *k) {
    p->len[i] = k->len;
    p->cards[i] = k->cards;
    p->below[i] = k->below;
}

/* Column i as the single card t. */
static void alone(Runs *p, int i, const uint8_t *t, uint64_t *below) {
    p->firsts = (p->firsts & ~(1ULL << p->cards[i][0])) | 1ULL << *t;
    below[0] = 0;
    below[1] = 1ULL << *t;
    p->cards[i] = t;
    p->below[i] = below;
    p->len[i] = 1;
}

/* The frozen cards `next` of runs p while n - 1 reserve cards stay, p being the runs `cols`
   (their frozen cards `fz` while n stay) with the runs in `changed` changed by a way the top
   leaves (`doomed`). When the top's suit from it up is frozen already without it (a lower
   card of its suit lies deeper in the reserve), n - 1 freeze what n do, and only the
   changed runs are looked at afresh (`freeze`): a card the way took from a run lay above
   that run's highest frozen card, so no card was frozen through it. */
static const Frozen *frozen_after(const Rules *r, const Runs *p, const Frozen *fz, int n,
                                  unsigned changed, Frozen *next) {
    if (r->frozen_by[n - 1] == r->frozen_by[n]) {
        if (!changed) return fz;
        *next = *fz;
        freeze(r, p, next, changed);
    } else {
        next->frozen = r->frozen_by[n - 1];
        freeze(r, p, next, all_runs(p));
    }
    return next;
}

/* board.Problem._doomed, with `fz` the frozen cards of `cols` while the n stay. Each way
   changes `cols` where it goes and puts them back after. */
static int doomed(const Rules *r, Runs *cols, const Frozen *fz, int n, uint64_t talon,
                  uint64_t seeds, int depth, int linked) {
    if (n == 1 || !depth) return top_stays(r, cols, fz, n, talon, seeds, linked);
    int t = r->reserve[n - 1], count = cols->count, stays;
    uint64_t firsts = cols->firsts, in = cols->in;
    uint64_t frozen = fz->frozen;
    const int *cover = fz->cover;
    if (linked && certain_deadlock(r, cols, frozen, cover)) return 1;
    uint64_t last = last_cards(cols, fz, seeds, talon, 0), after = last | 1ULL << t;
    uint8_t card = (uint8_t)t;
    uint64_t one[2];
    Made made;
    Kept kept_j, kept_i;
    Frozen next;
    /* t goes up */
    if (!(frozen & suit_below(r, t)) &&
        !doomed(r, cols, frozen_after(r, cols, fz, n, 0, &next), n - 1, talon, last, depth - 1,
                0))
        return 0;
    /* t goes onto e */
    for (uint64_t x = PARENTS[t] & last; x; x &= x - 1) {
        int e = __builtin_ctzll(x), was = run_with(cols, e);
        if (was >= 0) keep(cols, was, &kept_j);
        int j = put_on_run(cols, was, e, &card, 1, &made);
        cols->in = (was >= 0 ? in & ~kept_j.below[kept_j.len] : in) | made.below[cols->len[j]];
        stays = doomed(r, cols, frozen_after(r, cols, fz, n, 1u << j, &next), n - 1,
                       talon & ~(1ULL << e), after, depth - 1, r->certain);
        if (was >= 0) put_back(cols, was, &kept_j);
        cols->count = count;
        cols->in = in;
        if (!stays) return 0;
    }
    /* a column empties, and t fills it */
    for (int i = 0; i < 4; i++) {
        int f = cols->cards[i][0], c = cover[i];
        keep(cols, i, &kept_i);
        uint64_t in_i = (in & ~kept_i.below[kept_i.len]) | 1ULL << t; /* t alone in column i */
        if (!(frozen >> f & 1)) { /* every card of it goes up */
            alone(cols, i, &card, one);
            cols->in = in_i;
            stays = doomed(r, cols, frozen_after(r, cols, fz, n, 1u << i, &next), n - 1, talon,
                           after, depth - 1, 0);
            put_back(cols, i, &kept_i);
            cols->firsts = firsts;
            cols->in = in;
            if (!stays) return 0;
        }
        for (uint64_t x = PARENTS[f] & last; x; x &= x - 1) { /* it goes onto e */
            int e = __builtin_ctzll(x), was = run_with(cols, e);
            if (was == i) continue;
            if (was >= 0) keep(cols, was, &kept_j);
            int j = put_on_run(cols, was, e, kept_i.cards, c + 1, &made);
            alone(cols, i, &card, one);
            cols->in = (was >= 0 ? in_i & ~kept_j.below[kept_j.len] : in_i) |
                       made.below[cols->len[j]];
            stays = doomed(r, cols, frozen_after(r, cols, fz, n, 1u << j | 1u << i, &next),
                           n - 1, talon & ~(1ULL << e), after, depth - 1, r->certain);
            if (was >= 0) put_back(cols, was, &kept_j);
            put_back(cols, i, &kept_i);
            cols->firsts = firsts;
            cols->in = in;
            cols->count = count;
            if (!stays) return 0;
        }
    }
    return 1;
}

/* board.Problem.talon_in_reach: the talon's cards that can come to the waste's top while the
   reserve's first `stay` cards stay in it, as card bits: all of them but in the last pass.
   Then the piles are the waste and the stock's lots of `draw`, each looked at from its top
   down to the first card that cannot leave. */
static uint64_t talon_in_reach(const Rules *r, const Work *w, int stay) {
    if (r->passes < 0 || w->pass < r->passes) return w->cards;
    uint8_t cards[64], positions[64];
    uint64_t reach = 0;
    int size;
    if (r->draw == 1) { /* the cards past the waste come to its top one at a time: in reach */
        uint64_t m = w->talon;
        for (size = 0; size < w->pointer; size++, m &= m - 1)
            cards[size] = r->order[__builtin_ctzll(m)];
        for (; m; m &= m - 1) reach |= 1ULL << r->order[__builtin_ctzll(m)];
    } else {
        size = talon_cards(r, w, cards, positions);
    }
    uint64_t home = 0; /* the cards on the foundations */
    for (int suit = 0; suit < 4; suit++) {
        if (w->found[suit] == 13)
            home |= 0x1fffULL << 13 * suit;
        else if (w->found[suit])
            home |= suit_below(r, suit * 13 + (r->start_rank + w->found[suit]) % 13);
    }
    uint64_t frozen = r->frozen_by[stay], held = home | r->reserve_mask[stay];
    for (int start = 0, end = w->pointer; start < size;) {
        uint64_t under = 0;
        for (int k = start; k < end; k++) under |= 1ULL << cards[k];
        for (int k = end - 1; k >= start; k--) {
            int card = cards[k];
            reach |= 1ULL << card;
            under &= ~(1ULL << card);
            if ((frozen | under) & suit_below(r, card) && !(PARENTS[card] & ~(held | under))) break;
        }
        start = end;
        end = end + r->draw < size ? end + r->draw : size;
    }
    return reach;
}

/* board._runs_to_hold: at least how many runs hold every card of `cards`, with other
   cards of `allowed` between them: the cards less the most of them that come right after
   another in a run, counted slot by slot round the cycle with at most two paths going on.
   The same count as board's loops, in a few steps on bits. The loops' count is that of
   paths read either way round, so here they go from each slot to the one before, the cards
   a card goes on. Ending a path at a card of `cards` is never worse than letting it through
   (it would end at most once further on), so each slot ends as many of the paths coming in
   as it has such cards: one path goes on from a slot with one such card, or with another
   allowed card and one coming in; two from a slot with two such cards, or with two allowed
   cards and two coming in. A slot with no other allowed card starts its paths afresh,
   whatever comes in: round the cycle from there the count is that of a line, where the
   loops' best way is this one; with none, a path goes round through every slot and ends at
   every card (0 runs, the loops' count too). So whether one path goes on from each slot and
   whether two, a bit a slot, are the carries of an addition: a slot with as many cards of
   `cards` makes one, a slot that lets as many through passes one on. The 26 slots are laid
   out in their order from the top bit down (a bit a rank, A to K: bits 13-25 the black
   cards of ranks A, 3, ... K and the red of 2, 4, ... Q, bits 0-12 the others), whether
   one path goes on in bits 0-25 and whether two in bits 32-57: the carry out of bit 25
   goes round to bit 0 (found by a first addition), and the cards where none comes in are
   the runs. Some 100 instructions with the call where the loops took 780 (deal 206's beam
   under app draw 3 with three passes spent half its first 300,000 nodes' on them). */
#define RANKS_ODD 0xaaaULL /* 2, 4, ... Q */
#define RANKS_EVEN 0x1555ULL /* A, 3, ... K */
#define TWO_LANES(m) ((m) | (m) << 32)

/* The slots' bits in their order from the top bit down, from `black` and `red` by rank (in
   bits 0-12 and 32-44 each): round the cycle the black K, the red Q, ... the black A, then
   the red K, the black Q, ... the red A. */
static uint64_t slot_order(uint64_t black, uint64_t red) {
    const uint64_t even = TWO_LANES(RANKS_EVEN), odd = TWO_LANES(RANKS_ODD);
    return ((black & even) | (red & odd)) << 13 | (black & odd) | (red & even);
}

static int runs_to_hold(uint64_t cards, uint64_t allowed) {
    uint64_t through = allowed & ~cards;
    uint64_t clubs = cards & 0x1fff, diamonds = cards >> 13 & 0x1fff;
    uint64_t hearts = cards >> 26 & 0x1fff, spades = cards >> 39;
    uint64_t black_ways = (through | through >> 39) & 0x1fff;
    uint64_t red_ways = (through >> 13 | through >> 26) & 0x1fff;
    uint64_t one_way = slot_order(black_ways, red_ways);
    if (one_way == (1ULL << 26) - 1) return 0; /* every slot lets a path through */
    uint64_t both = cards | through;
    uint64_t black_two = black_ways & both & both >> 39;
    uint64_t red_two = red_ways & both >> 13 & both >> 26;
    uint64_t made = slot_order(clubs | spades | (clubs & spades) << 32,
                               diamonds | hearts | (diamonds & hearts) << 32);
    uint64_t passed = one_way | slot_order(black_two << 32, red_two << 32);
    uint64_t ways = made | passed, round = ways + made;
    uint64_t carries = (ways + made + (round >> 26 & 1) + ((round >> 58 & 1) << 32)) ^ ways ^ made;
    return bit_count(made & ~carries);
}

/* board._runs_held: `runs_to_hold(cards, cards)`, the cards less the sum round the cycle of
   the smaller count of each two neighbouring slots (a colour and rank, the other colour a
   rank lower): 1 where both hold a card, 2 where both hold both. */
static int runs_held(uint64_t cards) {
    uint64_t clubs = cards & 0x1fff, diamonds = cards >> 13 & 0x1fff;
    uint64_t hearts = cards >> 26 & 0x1fff, spades = cards >> 39 & 0x1fff;
    uint64_t black = clubs | spades, red = diamonds | hearts;
    uint64_t blacks = clubs & spades, reds = diamonds & hearts;
#define ROTATED(m) (((m) << 1 | (m) >> 12) & 0x1fff)
    /* the four 13-bit sets of links side by side, counted at once */
    uint64_t links = (black & ROTATED(red)) | (red & ROTATED(black)) << 13 |
                     (blacks & ROTATED(reds)) << 26 | (reds & ROTATED(blacks)) << 39;
#undef ROTATED
    return bit_count(cards) - bit_count(links);
}

/* `runs_held(held | 1 << card)` and `runs_held(held & ~(1 << card))` from `runs =
   runs_held(held)`: the card changes the count `n` of its slot (its colour and rank) by one,
   and with it the link to each neighbouring slot (the other colour a rank either side: the
   cards that go on it, those it goes on) whose count passes `n` (adding) or reaches it
   (taking away): with its twin (the same rank and colour) held, where both of that slot's
   cards are held, else where either is. */
static int links_moved(uint64_t held, int card) {
    uint64_t lower = held & CHILDREN[card], higher = held & PARENTS[card];
    if (held >> TWIN[card] & 1) return (lower == CHILDREN[card]) + (higher == PARENTS[card]);
    return (lower != 0) + (higher != 0);
}

static int runs_adding(uint64_t held, int runs, int card) {
    return runs + 1 - links_moved(held, card);
}

static int runs_removing(uint64_t held, int runs, int card) {
    return runs - 1 + links_moved(held, card);
}

/* board.Problem._runs_to_place */
static int runs_to_place(int card, uint64_t held, uint64_t allowed, int runs) {
    int fewest = runs + 1;
    for (int m = 0; m < 2; m++) {
        int parent = PARENT[card][m];
        if (!(allowed >> parent & 1)) continue;
        int with = runs_to_hold(held | 1ULL << parent, allowed);
        if (fewest > with) fewest = with;
    }
    return fewest;
}

/* board.Problem._runs_needed, remembered in a small table of each thread's own, by the
   problem and talon order (`salt`), the talon left, the pointer and the reserve count. */
#define RUNS_MEMO 4096
typedef struct {
    uint64_t salt, talon;
    int32_t where; /* pointer and reserve count, or -1 when empty */
    int32_t runs;
} RunsMemo;
static _Thread_local RunsMemo runs_memo[RUNS_MEMO];
static _Thread_local int runs_memo_ready;

static int runs_needed(const Rules *r, const Work *w) {
    if (!runs_memo_ready) {
        for (int i = 0; i < RUNS_MEMO; i++) runs_memo[i].where = -1;
        runs_memo_ready = 1;
    }
    int32_t where = w->pointer << 8 | w->reserve;
    uint64_t h = (r->salt ^ w->talon ^ (uint64_t)where << 52) * 0x9e3779b97f4a7c15ULL;
    RunsMemo *m = &runs_memo[h >> 52 & (RUNS_MEMO - 1)];
    if (m->where == where && m->talon == w->talon && m->salt == r->salt) return m->runs;
    uint8_t cards[64], positions[64];
    int size = talon_cards(r, w, cards, positions);
    uint64_t maybe_left = w->cards | r->reserve_mask[w->reserve];
    int most = 0;
    for (int start = 0, end = w->pointer; start < size;) {
        uint64_t stays = 0, frozen = 0, above = 0;
        for (int k = start; k < end; k++) above |= 1ULL << cards[k];
        for (int k = start; k < end; k++) {
            stays |= 1ULL << cards[k];
            above &= ~(1ULL << cards[k]);
            frozen |= r->from[cards[k]];
            uint64_t held = frozen & ~(maybe_left & ~above);
            if (bit_count(held) < COLUMNS) continue; /* never too many runs */
            uint64_t allowed = ((1ULL << 52) - 1) & ~stays;
            int runs = runs_to_hold(held, allowed);
            /* Its way off the waste adds one run at most: count it only if that may tell. */
            if (runs >= (most > COLUMNS ? most : COLUMNS) && (suit_below(r, cards[k]) & stays))
                runs = runs_to_place(cards[k], held, allowed, runs);
            if (most < runs) most = runs;
        }
        start = end;
        end = end + r->draw < size ? end + r->draw : size;
    }
    *m = (RunsMemo){r->salt, w->talon, where, most};
    return most;
}

/* board.Problem.columns_cannot_hold */
/* board.Problem._follows_stock: the last pass of limited passes, talon cards left. */
static int follows_stock(const Rules *r, const Work *w) {
    return r->passes >= 0 && w->pass >= r->passes && w->cards;
}

/* board.Problem._counts_last_pass: the run count's tests apply (the last pass, talon left). */
static int counts_last_pass(const Rules *r, const Work *w) {
    return r->draw == 3 && r->returns && follows_stock(r, w);
}

/* board._breaks: the column cards that lie on one they do not fit on: those that lie on
   one, less those that fit. */
static int breaks_of(const Work *w) {
    int breaks = 0;
    for (int i = 0; i < 4; i++) {
        const uint8_t *col = w->col[i];
        int len = w->len[i];
        if (len < 2) continue;
        breaks += len - 1;
        for (int k = 1; k < len; k++) breaks -= (int)(CHILDREN[col[k - 1]] >> col[k] & 1);
    }
    return breaks;
}

static int columns_cannot_hold(const Rules *r, const Work *w) {
    if (!counts_last_pass(r, w)) return 0;
    int runs = runs_needed(r, w);
    if (runs <= COLUMNS) return 0; /* the breaks only add room: not counted */
    return runs > COLUMNS + breaks_of(w);
}

/* board.Problem.closed_game_lost: in the last pass, the game of the talon left, the
   reserve's count, the foundations' counts and column cards in `room` runs at most (a column
   card goes up whenever it is next) cannot be won (`closed_lost`). Its
   states are (the talon's positions, `rest`: the four counts, 4 bits each, the pointer from
   bit 16, the reserve count from bit 22, the room from bit 26, at most 52: every card set
   fits in 52 runs); each search's states are kept in thread-local arrays, one set for each
   reserve count, that grow as needed, and the answers in a small table by the problem and
   talon order (`salt`) and the state: a lost search's every state, a won one's first. */
typedef struct {
    uint64_t talon;
    uint32_t rest;
    uint8_t runs; /* runs_held(held): what the state's key fixes, carried from its parent */
    uint64_t held; /* the column cards */
    uint8_t known; /* in the table as lost already (a lost search need not remember it) */
} Closed;
typedef struct {
    uint64_t talon;
    uint32_t rest, stamp;
} ClosedSeen;
typedef struct {
    ClosedSeen *seen;
    size_t size; /* a power of two, or 0 */
    size_t used; /* the first slots this search hashes into: a power of two up to size */
    uint32_t stamp;
    Closed *all; /* every state of this search, in order */
    uint32_t *stack; /* `closed_lost`'s states to expand, as indices in `all` */
} ClosedSet;
#define CLOSED_MEMO (1 << 20) /* 16 MiB a thread, made when first asked */
#define CLOSED_MEMO_BEAM (1 << 23) /* 128 MiB: a beam's thread grows its table to this */
#define CLOSED_POINTER 16
#define CLOSED_RESERVE_AT 22
#define CLOSED_ROOM 26
#define CLOSED_RESERVE 3 /* board.CLOSED_RESERVE */
#define CLOSED_RESERVE_DRAW_1 4 /* board.CLOSED_RESERVE_DRAW_1 */
#define CLOSED_TALON_DRAW_1 20 /* board.CLOSED_TALON_DRAW_1 */
#define CLOSED_LEVELS 4 /* the most reserve cards of either */
typedef struct {
    uint64_t talon;
    uint32_t rest;
    uint32_t tag; /* the problem's number in this thread (`ClosedTable.id`) << 2 | the answer
                     (0: empty, 1: not lost, 2: lost) */
} ClosedMemo;
/* A thread's table of answers: `size` slots (a power of two); the problem (`salt`) it last
   answered for and that problem's number, which each slot keeps in place of the salt (16
   bytes a slot rather than 24); a new problem takes the next number, so the slots of
   earlier ones are never taken for its own. */
typedef struct {
    ClosedMemo *memo;
    size_t size;
    uint64_t salt;
    uint32_t id; /* from 1; 0 before the first problem */
} ClosedTable;
#define CLOSED_IDS (1U << 30) /* a slot's tag keeps 30 bits of the number */
static _Thread_local ClosedTable closed_memo;
static _Thread_local ClosedSet closed_sets[CLOSED_LEVELS + 1];
/* The deadline and the halt flag of the search in this thread (0 and NULL: none). A closed
   game still searching past either gives up: it answers "not lost" and remembers nothing
   from then on (`closed_gave_up`), so that a search keeps to its seconds. Some last-pass
   states ask for millions of the game's states, seconds of CPU (a beam in app draw 1 with
   three passes, deal 344: 3.1 million, where the search's 10 s ran out and the helper
   went on for 8 s more). */
static _Thread_local double closed_until;
static _Thread_local const int *closed_halt;
static _Thread_local int closed_gave_up;
static double now(void);

static void closed_stop_at(double until, const int *halt) {
    closed_until = until;
    closed_halt = halt;
    closed_gave_up = 0;
}

static int closed_stopping(void) {
    return (closed_until > 0 && now() > closed_until) ||
           (closed_halt && __atomic_load_n(closed_halt, __ATOMIC_RELAXED));
}

static uint64_t closed_hash(uint64_t talon, uint32_t rest) {
    uint64_t h = (talon ^ ((uint64_t)rest << 40 | rest)) * 0x9e3779b97f4a7c15ULL;
    return h ^ h >> 29;
}

/* This thread's table, made when first asked (`memo` NULL when it cannot be made: then
   nothing is known), for the problem of `r`. Found once a search (`closed_lost`). */
static ClosedTable *closed_table(const Rules *r) {
    ClosedTable *t = &closed_memo;
    if (!t->memo) {
        t->memo = calloc(CLOSED_MEMO, sizeof *t->memo);
        t->size = t->memo ? CLOSED_MEMO : 0;
    }
    if (t->salt != r->salt || !t->id) {
        if (++t->id == CLOSED_IDS) { /* the numbers wrapped: start the table afresh */
            if (t->memo) memset(t->memo, 0, t->size * sizeof *t->memo);
            t->id = 1;
        }
        t->salt = r->salt;
    }
    return t;
}

/* Grows this thread's table to `size` slots (its answers forgotten); as it was when it
   cannot. A beam asks the game of states far apart, which a small table forgets before
   they come again (`beam`). */
static void closed_grow(size_t size) {
    ClosedTable *t = &closed_memo;
    if (t->size >= size) return;
    ClosedMemo *memo = calloc(size, sizeof *memo);
    if (!memo) return;
    free(t->memo);
    t->memo = memo;
    t->size = size;
}

/* The table's slot for a state. */
/* The same, from the state's hash. */
static ClosedMemo *closed_slot_of(const ClosedTable *t, uint64_t hash) {
    return &t->memo[(hash ^ t->salt) >> 16 & (t->size - 1)];
}

static ClosedMemo *closed_slot(const ClosedTable *t, uint64_t talon, uint32_t rest) {
    return closed_slot_of(t, closed_hash(talon, rest));
}

/* The memo's answer for a state whose hash is known: 1 lost, 0 won, -1 not known. */
static int closed_known_at(const ClosedTable *t, uint64_t talon, uint32_t rest, uint64_t hash) {
    if (!t->memo) return -1;
    const ClosedMemo *m = closed_slot_of(t, hash);
    return m->talon == talon && m->rest == rest && m->tag >> 2 == t->id && m->tag & 3
               ? (int)(m->tag & 3) - 1
               : -1;
}

static int closed_known(const ClosedTable *t, uint64_t talon, uint32_t rest) {
    return closed_known_at(t, talon, rest, closed_hash(talon, rest));
}

static int closed_known_of(const ClosedTable *t, const Closed *c, uint64_t hash) {
    return closed_known_at(t, c->talon, c->rest, hash);
}

static void closed_remember(const ClosedTable *t, uint64_t talon, uint32_t rest, int lost) {
    if (t->memo)
        *closed_slot(t, talon, rest) = (ClosedMemo){talon, rest, t->id << 2 | (uint32_t)(lost + 1)};
}

/* Starts a new search's set, in the first slots of its table only: most searches are of a
   few states, and spread over all the slots a large one left they missed the cache. */
#define CLOSED_SET_FIRST 4096
static void closed_restamp(ClosedSet *set) {
    if (++set->stamp == 0) { /* the stamps wrapped: start the set afresh */
        if (set->seen) memset(set->seen, 0, set->size * sizeof *set->seen);
        set->stamp = 1;
    }
}

static void closed_begin(ClosedSet *set) {
    closed_restamp(set);
    set->used = set->size < CLOSED_SET_FIRST ? set->size : CLOSED_SET_FIRST;
}

/* Puts this search's `count` states back into the set's `used` slots, under a new stamp. */
static void closed_rehash(ClosedSet *set, size_t count) {
    closed_restamp(set);
    size_t mask = set->used - 1;
    for (size_t k = 0; k < count; k++) {
        const Closed *c = &set->all[k];
        size_t i = closed_hash(c->talon, c->rest) & mask;
        while (set->seen[i].stamp == set->stamp) i = (i + 1) & mask;
        set->seen[i] = (ClosedSeen){c->talon, c->rest, set->stamp};
    }
}

/* Makes room in the set for its `count`-th state: the first slots it hashes into doubled,
   the arrays grown when they are full; 0 when out of memory. */
static __attribute__((noinline)) int closed_room(ClosedSet *set, size_t count) {
    if (2 * (count + 1) > set->size) { /* grow the arrays */
        size_t size = set->size ? 2 * set->size : CLOSED_SET_FIRST;
        ClosedSeen *seen = calloc(size, sizeof *seen);
        Closed *all = realloc(set->all, size * sizeof *all);
        if (all) set->all = all;
        uint32_t *stack = realloc(set->stack, size * sizeof *stack);
        if (stack) set->stack = stack;
        if (!seen || !all || !stack) {
            free(seen);
            return 0;
        }
        free(set->seen);
        set->seen = seen;
        set->size = size;
        set->stamp = 0;
    }
    set->used = 2 * set->used > set->size || !set->used ? set->size : 2 * set->used;
    closed_rehash(set, count);
    return 1;
}

/* Adds a state to this search's set: 1 if new, 0 if there, -1 out of memory. */
static inline __attribute__((always_inline)) int closed_add(ClosedSet *set, const Closed *state,
                                                         uint64_t hash, size_t count) {
    if (2 * (count + 1) > set->used && !closed_room(set, count)) return -1;
    size_t mask = set->used - 1, i = hash & mask;
    while (set->seen[i].stamp == set->stamp) {
        if (set->seen[i].talon == state->talon && set->seen[i].rest == state->rest) return 0;
        i = (i + 1) & mask;
    }
    set->seen[i] = (ClosedSeen){state->talon, state->rest, set->stamp};
    set->all[count] = *state;
    return 1;
}

/* Frees this thread's arrays of `closed_lost` (a helper thread's, when it ends). */
static void closed_release(void) {
    free(closed_memo.memo);
    closed_memo = (ClosedTable){NULL, 0, 0, 0};
    for (int level = 0; level <= CLOSED_LEVELS; level++) {
        ClosedSet *set = &closed_sets[level];
        free(set->seen);
        free(set->all);
        free(set->stack);
        *set = (ClosedSet){NULL, 0, 0, 0, NULL, NULL};
    }
}

/* The column cards of the state (talon, rest): every card not in the talon (its positions
   in the talon order), on the reserve (`on_reserve`) or on the foundations. */
static uint64_t closed_held(const Rules *r, uint64_t talon, uint32_t rest, uint64_t on_reserve) {
    uint64_t cards = 0, home = 0;
    for (uint64_t m = talon; m; m &= m - 1) cards |= 1ULL << r->order[__builtin_ctzll(m)];
    for (int suit = 0; suit < 4; suit++) {
        int f = rest >> 4 * suit & 15;
        if (f == 13)
            home |= 0x1fffULL << 13 * suit;
        else if (f)
            home |= suit_below(r, suit * 13 + (r->start_rank + f) % 13);
    }
    return ((1ULL << 52) - 1) & ~home & ~cards & ~on_reserve;
}

/* board.Problem._closed_lost, for the state (talon, rest) with `level` reserve cards (in
   `rest` too): searched in full, in the set of its own count, each move of the reserve's top
   asking the game with one card fewer (`game_lost`, below). */
static int closed_lost(const Rules *r, uint64_t talon, uint32_t rest, int level);

/* board.Problem.plays_closed_game (limited passes, cards back from the foundations), and with
   it the rest of closed_game_lost's guard: the last pass, talon left. */
static int closed_plays(const Rules *r) {
    return r->passes >= 0 && r->returns;
}

static int closed_last_pass(const Rules *r, const Work *w) {
    return closed_plays(r) && w->pass >= r->passes && w->talon;
}

/* The guard of `closed_game_lost` and `ends_game_lost` (the last pass, at most `most`
   reserve cards drawing three, `CLOSED_RESERVE_DRAW_1` and a talon bound drawing one), and
   the state's `rest` for their games when it passes. */
static int closed_rest(const Rules *r, const Work *w, int most, uint32_t *rest) {
    if (!closed_last_pass(r, w)) return 0;
    if (w->reserve > (r->draw == 3 ? most : CLOSED_RESERVE_DRAW_1)) return 0;
    if (w->reserve && r->draw == 1 && __builtin_popcountll(w->talon) > CLOSED_TALON_DRAW_1)
        return 0;
    int room = COLUMNS + breaks_of(w);
    *rest = (uint32_t)(w->found[0] | w->found[1] << 4 | w->found[2] << 8 | w->found[3] << 12 |
                       w->pointer << CLOSED_POINTER | w->reserve << CLOSED_RESERVE_AT |
                       (room < 52 ? room : 52) << CLOSED_ROOM);
    return 1;
}

static int closed_game_lost(const Rules *r, const Work *w) {
    uint32_t rest;
    return closed_rest(r, w, CLOSED_RESERVE, &rest) && closed_lost(r, w->talon, rest, w->reserve);
}

/* board.Problem.ends_game_lost: in the last pass, with the reserve empty or a few reserve
   cards left (as the closed game), the closed game in which a card comes into the columns
   onto a last card it fits on or into an empty column, and goes up from them a last card,
   cannot be won (`ends_lost`). Its states are the closed game's with ENDS_TAG in the talon
   word (never a talon position): its answers share the closed game's table, and it searches
   in the closed game's sets, one a reserve count (it is asked after the closed game, never
   inside it). */
#define ENDS_TAG (1ULL << 63)
#define ENDS_RESERVE 4 /* board.ENDS_RESERVE; at most CLOSED_LEVELS (its sets) */

/* board.Problem._ends_room: at least how many runs hold `held` (in `runs`, `runs_held`)
   with `card`, one of them, last: one more when its slot's cards in `held` are no more than
   those of the next slot (the cards that go on it). */
static inline int ends_room(uint64_t held, int runs, int card) {
    uint64_t here = held & (1ULL << card | 1ULL << TWIN[card]);
    return runs + (bit_count(here) <= bit_count(held & CHILDREN[card]));
}

/* Whether `card` can come into the columns holding `held` in `runs` runs at least: into an
   empty column (the others then hold every card: `room` - 1 runs), or onto a card it fits
   on that can be last. */
static int ends_lands(uint64_t held, int runs, int room, int card) {
    if (runs < room) return 1;
    for (uint64_t q = PARENTS[card] & held; q; q &= q - 1)
        if (ends_room(held, runs, __builtin_ctzll(q)) <= room) return 1;
    return 0;
}

/* The closed game's moves from `here` that keep the reserve: a foundation's top down, a
   waste top into the columns or up, a column card up; into `next` (with their column cards
   and run counts, each from `here`'s: one card more or fewer), their number returned. A
   move that leaves more column cards than `room` runs hold is left out: never a state of
   the real game, and lost (`closed_lost` found it so once it had looked it up, added it
   and taken it). The moves up come last, so `closed_lost` takes them first: a game that
   can be won is won in fewer states (a lost one is searched in full in any order). With
   `ends` (`ends_lost`), each card into the columns only where it lands (`ends_lands`) and
   each column card up only where it can be last (`ends_room`). */
static inline __attribute__((always_inline)) int game_moves(const Rules *r, const Closed *here,
                                                            const uint8_t f[4], int room,
                                                            Closed *next, const int ends) {
    int n = 0, u = 0, start = r->start_rank, runs = here->runs;
    uint64_t held = here->held, talon = here->talon, bits = talon & ~ENDS_TAG;
    Closed ups[4 + 64]; /* the moves up, last: searched first */
    for (int suit = 0; suit < 4; suit++) {
        if (!f[suit]) continue;
        int rank = start + f[suit] - 1, card = suit * 13 + (rank < 13 ? rank : rank - 13);
        int more = runs_adding(held, runs, card);
        if (more <= room && (!ends || ends_lands(held, runs, room, card)))
            next[n++] = (Closed){talon, here->rest - (1U << 4 * suit), (uint8_t)more,
                                 held | 1ULL << card, 0};
    }
    /* `reach` in the last pass: the waste's top, then each draw's to the talon's end */
    int pointer = (int)(here->rest >> CLOSED_POINTER & 0x3f), size = bit_count(bits);
    int reached[64], k = 0;
    if (pointer) reached[k++] = pointer;
    for (int q = pointer; q < size;) reached[k++] = q = q + r->draw < size ? q + r->draw : size;
    uint64_t m = bits; /* from the talon's (q-1)-th position on: q rises */
    for (int x = 0, at = 1; x < k; x++) {
        int q = reached[x];
        for (; at < q; at++) m &= m - 1;
        uint64_t left = talon & ~(m & -m);
        int card = r->order[__builtin_ctzll(m)];
        uint32_t moved = (here->rest & ~(0x3fU << CLOSED_POINTER)) | (uint32_t)(q - 1)
                                                                          << CLOSED_POINTER;
        if (next_up(r, f, card))
            ups[u++] = (Closed){left, moved + (1U << 4 * (card / 13)), (uint8_t)runs, held, 0};
        int more = runs_adding(held, runs, card);
        if (more <= room && (!ends || ends_lands(held, runs, room, card))) /* into the columns */
            next[n++] = (Closed){left, moved, (uint8_t)more, held | 1ULL << card, 0};
    }
    for (int suit = 0; suit < 4; suit++) {
        int rank = start + f[suit], card = suit * 13 + (rank < 13 ? rank : rank - 13);
        if (f[suit] == 13 || !(held >> card & 1)) continue;
        int fewer = runs_removing(held, runs, card);
        if (fewer <= room && (!ends || ends_room(held, runs, card) <= room))
            ups[u++] = (Closed){talon, here->rest + (1U << 4 * suit), (uint8_t)fewer,
                                held & ~(1ULL << card), 0};
    }
    for (int x = 0; x < u; x++) next[n++] = ups[x];
    return n;
}

/* `closed_lost` (`game_moves`, the reserve's top into the columns while the cards fit)
   and, with `ends`, `ends_lost` (`game_moves` with `ends`, the reserve's top into the columns only where
   it lands), for the state (talon, with ENDS_TAG for the ends game, rest) with `level`
   reserve cards: searched in full, in the set of its own count, each move of the reserve's
   top asking the game with one card fewer. */
static int ends_lost(const Rules *r, uint64_t talon, uint32_t rest, int level);

static inline __attribute__((always_inline)) int game_lost(const Rules *r, uint64_t talon,
                                                           uint32_t rest, int level,
                                                           const int ends) {
    if (closed_gave_up) return 0;
    const ClosedTable table = *closed_table(r), *memo = &table; /* kept in registers */
    int known = closed_known(memo, talon, rest);
    if (known >= 0) return known;
    ClosedSet *set = &closed_sets[level];
    /* Opaque to the compiler, so that it keeps the pointer rather than finding it again in
       the loop: each thread-local access in this shared library is a call. */
    __asm__("" : "+r"(set));
    closed_begin(set);
    int room = (int)(rest >> CLOSED_ROOM);
    int top = level ? r->reserve[level - 1] : 0;
    uint64_t held = closed_held(r, talon & ~ENDS_TAG, rest, r->reserve_mask[level]);
    Closed first = {talon, rest, (uint8_t)runs_held(held), held, 0};
    if (first.runs > room) { /* never a state of the real game */
        closed_remember(memo, talon, rest, 1);
        return 1;
    }
    if (closed_add(set, &first, closed_hash(talon, rest), 0) < 1) return 0;
    size_t count = 1;
    size_t todo = 1, steps = 0;
    set->stack[0] = 0;
    while (todo) {
        if (!(++steps & 0xfff) && closed_stopping()) {
            closed_gave_up = 1;
            return 0;
        }
        const Closed here = set->all[set->stack[--todo]];
        uint8_t f[4];
        for (int suit = 0; suit < 4; suit++) f[suit] = here.rest >> 4 * suit & 15;
        if (f[0] + f[1] + f[2] + f[3] == 52) {
            closed_remember(memo, talon, rest, 0);
            return 0;
        }
        /* The reserve's top up, or into the columns: the game with one card fewer (lost
           when its column cards need more runs than `room`). */
        uint32_t fewer = here.rest - (1U << CLOSED_RESERVE_AT);
        uint32_t ways[2];
        int w = 0;
        if (level && next_up(r, f, top)) ways[w++] = fewer + (1U << 4 * (top / 13));
        if (level && (ends ? ends_lands(here.held, here.runs, room, top)
                           : runs_adding(here.held, here.runs, top) <= room))
            ways[w++] = fewer;
        for (int x = 0; x < w; x++) {
            int lost = ends ? ends_lost(r, here.talon, ways[x], level - 1)
                            : closed_lost(r, here.talon, ways[x], level - 1);
            if (!lost) {
                if (!closed_gave_up) closed_remember(memo, talon, rest, 0);
                return 0;
            }
        }
        Closed next[8 + 2 * 64];
        uint64_t hashes[8 + 2 * 64];
        int n = game_moves(r, &here, f, room, next, ends);
        /* The new states first, their slots in the table fetched ahead, then their answers
           looked up: each look-up is a miss of the cache, and so they overlap. */
        size_t first_new = count;
        for (int x = 0; x < n; x++) {
            uint64_t hash = closed_hash(next[x].talon, next[x].rest);
            int added = closed_add(set, &next[x], hash, count);
            if (added < 0) return 0;
            if (!added) continue;
            if (memo->memo) __builtin_prefetch(closed_slot_of(memo, hash));
            hashes[count - first_new] = hash;
            count++;
        }
        for (size_t x = first_new; x < count; x++) {
            int kn = closed_known_of(memo, &set->all[x], hashes[x - first_new]);
            if (kn == 0) {
                closed_remember(memo, talon, rest, 0);
                return 0;
            }
            if (kn < 0) set->stack[todo++] = (uint32_t)x;
            else set->all[x].known = 1;
        }
    }
    /* the first state last: a search of more states than the table holds keeps it; each
       slot fetched some states ahead */
    for (size_t x = count; x-- > 0;) {
        const Closed *ahead = &set->all[x >= 8 ? x - 8 : 0];
        if (memo->memo) __builtin_prefetch(closed_slot(memo, ahead->talon, ahead->rest), 1);
        if (!set->all[x].known) closed_remember(memo, set->all[x].talon, set->all[x].rest, 1);
    }
    return 1;
}

static int closed_lost(const Rules *r, uint64_t talon, uint32_t rest, int level) {
    return game_lost(r, talon, rest, level, 0);
}

/* board.Problem._ends_lost, for the state (talon with ENDS_TAG, rest) with `level` reserve
   cards: `game_lost` with `ends`. */
static int ends_lost(const Rules *r, uint64_t talon, uint32_t rest, int level) {
    return game_lost(r, talon, rest, level, 1);
}

static int ends_game_lost(const Rules *r, const Work *w) {
    uint32_t rest;
    return closed_rest(r, w, ENDS_RESERVE, &rest) &&
           ends_lost(r, w->talon | ENDS_TAG, rest, w->reserve);
}

/* The top-or-all test's counts: per suit, how many cards from the start rank may be up (a
   byte each, so that a call copies them as one word). */
typedef struct {
    uint8_t of[4];
} Counts;

/* For `top_grow`: each suit's cards in `free` go up in order from its next one (`count`,
   from the start rank), added to *up; as a loop card by card, in one step a suit. */
static void rise_in_order(const Rules *r, uint64_t free, uint64_t *up, Counts *count) {
    /* Each suit's cards in *up are its first `count` from the start rank, so the next ones
       are those not up that lie one rank above an up card, or start it: none free, none
       rises (the common case, told at once). */
    const uint64_t aces = 1ULL | 1ULL << 13 | 1ULL << 26 | 1ULL << 39;
    uint64_t above = (*up << 1 & ~aces) | (*up & aces << 12) >> 12;
    uint64_t next = free & (above | r->start_cards) & ~*up; /* each suit's next card, if free */
    if (!next) return;
    /* A suit's 13 bits twice over, the start rank's at bit s: bit s + k is the card k ranks
       above the start rank (k < 13). */
    int s = r->start_rank;
    uint64_t within = (1ULL << (s + 13)) - 1;
    do { /* only the suits whose next card is free rise */
        int suit = __builtin_ctzll(next) / 13, c = count->of[suit];
        uint64_t f = free >> 13 * suit & 0x1fff, twice = (f | f << 13) & within;
        int n = c + __builtin_ctzll(~twice >> (s + c));
        uint64_t m = ((1ULL << (s + n)) - 1) & ~((1ULL << (s + c)) - 1);
        *up |= ((m | m >> 13) & 0x1fff) << 13 * suit;
        count->of[suit] = (uint8_t)n;
        next &= ~(0x1fffULL << 13 * suit);
    } while (next);
}

/* What `top_grow` leaves a call's ways: where its walks down the runs stopped, as the cards
   that may let one go on (a card of `by_last` that becomes last: the card a walk stopped at,
   or one that the card on it fits on; or one of `by_up` that goes up: the card on it), and
   the last cards, every talon card that goes on one of them last too (`chased`). */
typedef struct {
    uint64_t by_last, by_up, chased;
} Grown;

/* board.Problem._top_grow: the least sets `up` and `last` closed under `_top_trapped`'s
   rules, the first cards `firsts` staying; `count` follows `up`. `walk`: the runs to walk at
   first (by index); *was holds the others' stops and the cards chased (the caller's), and
   *grown then this call's. So a way's call walks at first only the runs the way changed: the
   caller's other runs are as they were then, with every card above their stops still last
   (a way covers only cards of the runs it changes), so only a card that lifts a stop lets
   one go on; and it chases the talon from its new last cards only (a card the way covers
   leaves the talon too). */
static void top_grow(const Rules *r, const Runs *p, uint64_t firsts, uint64_t talon,
                     unsigned walk, const Grown *was, Grown *grown, uint64_t *up_io,
                     uint64_t *last_io, Counts *count) {
    uint64_t up = *up_io, last = *last_io, chased = was->chased;
    uint64_t by_last = was->by_last, by_up = was->by_up;
    int from[MAX_RUNS]; /* per run: where the walk down it stopped (the cards above are last) */
    for (int i = 0; i < MAX_RUNS; i++) from[i] = p->len[i] - 2; /* all: one step, no count */
    /* Each round chases the talon and sends cards up to a closure (again only once the walk
       before added a last card: they read no other), then walks the runs with what those
       made. A walk goes on from where it stopped only once a card lifts its stop: when none
       does, a walk would add nothing, and the sets are closed under all three (so a round
       that walked every run and added nothing is the last). */
    for (int first = 1;; first = 0) {
        if (first || last != chased) {
            /* talon cards onto possible last cards (those `chased` had theirs already: the
               others are a few, so card by card) */
            for (uint64_t fresh = last & ~chased; fresh;) {
                uint64_t children = 0;
                for (uint64_t x = fresh; x; x &= x - 1) children |= CHILDREN[__builtin_ctzll(x)];
                fresh = children & talon & ~last;
                last |= fresh;
            }
            chased = last;
            rise_in_order(r, (last | talon) & ~firsts, &up, count);
        }
        if (!walk) {
            if (!(by_last & last) && !(by_up & up)) break;
            walk = all_runs(p);
            by_last = by_up = 0;
        }
        for (; walk; walk &= walk - 1) {
            int i = __builtin_ctz(walk);
            const uint8_t *col = p->cards[i];
            int k = from[i];
            for (; k >= 0; k--) {
                /* the card on col[k] is last (Python asks; here it always is): a run's top
                   card is (each way puts a last card on top, and covers only cards it puts a
                   card on), and the walk passes only last cards */
                int on = col[k + 1];
                if (last >> col[k] & 1) continue;
                if (!(up >> on & 1) && !(PARENTS[on] & last)) {
                    by_last |= 1ULL << col[k] | PARENTS[on];
                    by_up |= 1ULL << on;
                    break;
                }
                last |= 1ULL << col[k];
            }
            from[i] = k;
        }
    }
    *grown = (Grown){by_last, by_up, chased};
    *up_io = up;
    *last_io = last;
}

/* The columns as the reserve test's runs, their masks in `below`. */
static void columns_as_runs(const Work *w, Runs *cols, uint64_t below[4][53]) {
    cols->count = 4;
    cols->firsts = cols->in = 0;
    for (int i = 0; i < 4; i++) {
        cols->len[i] = w->len[i];
        cols->cards[i] = w->col[i];
        cols->below[i] = below[i];
        below[i][0] = 0;
        make_below(w->col[i], 0, w->len[i], below[i]);
        cols->firsts |= 1ULL << w->col[i][0];
        cols->in |= below[i][w->len[i]];
    }
}

/* `put_on_run` for the top-or-all test (`columns_as_top_runs`): the run's cards and its
   whole mask only; `more_mask`: the cards of `more`. Its runs' cards (a column's, `Made`'s,
   a reserve card alone) have room to copy in 8-byte words, as the runs are short. */
static inline __attribute__((always_inline)) int top_put(Runs *p, int j, int e,
                                                      const uint8_t *more, int m,
                                                      uint64_t more_mask, Made *made) {
    int q;
    uint64_t mask;
    if (j >= 0) { /* its cards up to e, as they are */
        const uint8_t *cards = p->cards[j];
        q = p->len[j] - 1;
        mask = p->below[j][q + 1];
        for (; cards[q] != e; q--) mask &= ~(1ULL << cards[q]);
        copy_words(made->cards, cards, q + 1);
    } else {
        j = p->count++;
        made->cards[0] = (uint8_t)e;
        q = 0;
        mask = 1ULL << e;
    }
    copy_words(made->cards + q + 1, more, m);
    made->below[q + 1 + m] = mask | more_mask;
    p->cards[j] = made->cards;
    p->below[j] = made->below;
    p->len[j] = q + 1 + m;
    return j;
}

/* board.Problem._covered: the sets once card e is covered (not a last card, not up, nor its
   suit above it; no longer in the talon). */
static void covered(const Rules *r, int e, uint64_t *talon, uint64_t *up, uint64_t *last,
                    Counts *count) {
    *talon &= ~(1ULL << e);
    *last &= ~(1ULL << e);
    if (*up >> e & 1) {
        *up &= ~r->from[e];
        count->of[e / 13] = r->rel[e];
    }
}

/* `top_covered`'s answers, remembered (a thread's, the last one in each slot): within a
   test its ways meet again (the sets `top_grow` makes from them the same), and one state's
   test asks what its parent's asked. By a fingerprint of all a call reads: its runs, n, the
   sets and counts after `top_grow`, and the test (`covered_tag`: the reserve's cards it may
   look at, the depth and the start rank, from which follows the rest of the rules it
   reads). The runs as the sum of LINK[card][the card it lies on] over their cards (52 for a
   column's first card, 53 for another run's), a call's from its caller's by the few cards a
   way moves: the same runs in another order give the same sum, and `top_covered` answers
   them alike (it asks every way). 96 bits kept, as the tables. The search explores the
   same nodes with it or without it (`Core.covered_memo`). */
#define COVERED_MEMO (1 << 14)
typedef struct {
    uint64_t a;
    uint32_t check;
    int32_t answer;
} CoveredMemo;
static _Thread_local CoveredMemo covered_memo[COVERED_MEMO];
static Fp LINK[52][54];

static uint64_t mix_a(uint64_t x);
static uint64_t mix_b(uint64_t x);
static uint64_t mum(uint64_t x, uint64_t y);

static void init_links(void) {
    for (uint64_t c = 0; c < 52; c++)
        for (uint64_t on = 0; on < 54; on++) {
            uint64_t x = (c * 54 + on + 1) * 0x9e3779b97f4a7c15ULL;
            LINK[c][on] = (Fp){mix_a(x ^ 0x3c6ef372fe94f82bULL), mix_b(x ^ 0xa54ff53a5f1d36f1ULL)};
        }
}

static inline __attribute__((always_inline)) void link_add(Fp *h, int card, int on) {
    h->a += LINK[card][on].a;
    h->b += LINK[card][on].b;
}

static inline __attribute__((always_inline)) void link_sub(Fp *h, int card, int on) {
    h->a -= LINK[card][on].a;
    h->b -= LINK[card][on].b;
}

/* A column's links (its first card on 52), added to *h, or taken from it (sign -1). */
static void column_links(Fp *h, const uint8_t *col, int len, int sign) {
    Fp sum = LINK[col[0]][52];
    for (int k = 1; k < len; k++) link_add(&sum, col[k], col[k - 1]);
    h->a += (uint64_t)sign * sum.a;
    h->b += (uint64_t)sign * sum.b;
}

/* The columns as the top-or-all test's runs: that test reads of a run's masks only the
   whole run's, below[i][len[i]] (`run_with`, the cards of a column that moves), so only
   that one is made here, and by `top_put`. With `links`, their links are added to it in
   the same walk down the cards (`column_links`). */
static void columns_as_top_runs(const Work *w, Runs *cols, uint64_t below[4][53], Fp *links) {
    cols->count = 4;
    cols->firsts = cols->in = 0;
    for (int i = 4; i < MAX_RUNS; i++) cols->len[i] = 0; /* read by `top_grow`, unused */
    for (int i = 0; i < 4; i++) {
        const uint8_t *col = w->col[i];
        int len = w->len[i];
        uint64_t mask = 1ULL << col[0];
        if (links) {
            link_add(links, col[0], 52);
            for (int k = 1; k < len; k++) {
                mask |= 1ULL << col[k];
                link_add(links, col[k], col[k - 1]);
            }
        } else {
            for (int k = 1; k < len; k++) mask |= 1ULL << col[k];
        }
        cols->len[i] = len;
        cols->cards[i] = col;
        cols->below[i] = below[i];
        below[i][len] = mask;
        cols->firsts |= 1ULL << col[0];
        cols->in |= mask;
    }
}

/* A reserve test: its depth, the memo (NULL: none), its reserve count (its first call's n),
   and the least n whose calls sum links (`sums_links`: deepest + 2, or none without the
   memo). */
typedef struct {
    CoveredMemo *memo;
    int deepest, top, linked;
} Trap;

/* Whether `top_covered` of the reserve's n cards reads its runs' links: it keys its answer
   in the memo, or its ways' calls do (not the test's last card's, nor any without the memo:
   their links are not summed). */
static int sums_links(const Trap *test, int n) { return n >= test->linked; }

/* Whether `top_covered` of the reserve's n cards keys its answer: not the test's first call,
   which another state's test would have to ask again (one in a thousand on skill draw 1 deal
   245, three on skill draw 3 deal 12: not worth its key). */
static int keyed(const Trap *test, int n) { return sums_links(test, n) && n < test->top; }

/* Whether the rules ask `refill_dead` at all (unlimited passes, empty columns taking no
   column card): the reserve test's memo key tells them apart (`covered_tag`). */
static inline int refill_asked(const Rules *r) {
    return r->passes < 0 && !r->empty_any;
}

/* The tag of a reserve test of the reserve's n cards down to index `deepest`: its runs'
   links start from it. Two hashes of those cards, one a half. The rules it reads beyond the
   start rank: whether `refill_dead` is asked (a thread's memo may serve skill draw 1 with
   and without a pass limit, the same deal). */
static Fp covered_tag(const Rules *r, int n, int deepest) {
    uint64_t test = (uint64_t)(r->start_rank | deepest << 8 | n << 16 | refill_asked(r) << 24);
    uint64_t a = 0xcbf29ce484222325ULL ^ test, b = 0x452821e638d01377ULL ^ test;
    for (int k = deepest; k < n; k++) {
        a = (a ^ r->reserve[k]) * 0x100000001b3ULL;
        b = (b ^ r->reserve[k]) * 0x9e3779b97f4a7c15ULL;
    }
    return (Fp){mix_a(a), mix_b(b)};
}

/* The key of a call (h: its runs' links from the test's tag; `talon`: its talon cards that
   are not last cards, as the others count only as last cards: `top_grow` chases the talon
   cards that are not, and sends up cards that are either; a way covers a card in both). The
   constants' top bits are set and the inputs' are not, so no factor is 0. */
static Fp covered_key(Fp h, int n, uint64_t talon, uint64_t up, uint64_t last,
                      Counts count) {
    uint32_t counts;
    memcpy(&counts, count.of, sizeof counts);
    uint64_t meta = (uint64_t)counts | (uint64_t)n << 32; /* one-to-one on any byte order */
    uint64_t a = mix_a(h.a ^ mum(talon ^ 0x882efa98ec4e6c89ULL, up ^ 0xbe5466cf34e90c6cULL) ^
                       mum(last ^ 0xc52821e638d01377ULL, meta ^ 0xd1310ba698dfb5acULL));
    uint64_t b = mix_b(h.b + mum(talon ^ 0xc0ac29b7c97c50ddULL, up ^ 0x9216d5d98979fb1bULL) +
                       mum(last ^ 0xbf84d5b5b5470917ULL, meta ^ 0xb8e1afed6a267e96ULL));
    return (Fp){a ? a : 1, b};
}

/* What `top_covered` hands each landing of the reserve's top t: the runs (changed by each
   way and put back) and their links, the reserve count, the sets with t a last card, and
   what its `top_grow` left. */
typedef struct {
    Runs *runs;
    Fp h;
    int n;
    uint64_t talon, up, last;
    Counts count;
    const uint8_t *t;
    const Grown *grown;
} Landing;

static int landings_hold(const Rules *r, const Trap *test, const Landing *g, int e,
                         const uint8_t *more, int m, int i, uint64_t last);

/* `run_with` for the top-or-all test, whose ways keep `in` (the runs' cards): a card in no
   run (a talon card, or one a way took away) is told at once. */
static inline int top_run_with(const Runs *p, int card) {
    return p->in >> card & 1 ? run_with(p, card) : -1;
}

/* Whether cards can land on e (`landings_hold` has a way): e lies in a run, or fits on a
   card in `last`. */
static int lands(const Runs *p, int e, uint64_t last) {
    return (PARENTS[e] & last) != 0 || p->in >> e & 1;
}

/* What `refill_dead` hands `refill_lies_dead`. */
typedef struct PlayMemo PlayMemo;
typedef struct {
    const Runs *p;
    int i, t;
    uint64_t targets, up;
    int top[MAX_RUNS];
    /* the play-outs' memo key, made once (`refill_ask`): from `up`, t and the problem, plus
       every run's piece (`play_key`), each piece's part kept to take it away again; the runs
       too long to key (bits) */
    uint64_t key_a, key_b, part_a[MAX_RUNS], part_b[MAX_RUNS];
    uint64_t piece[MAX_RUNS]; /* each run's cards up to index top (bits) */
    unsigned unkeyed;
    PlayMemo *memo; /* this thread's `play_memo` */
} Refill;

/* `refill_dead`'s answers within one `top_covered` (per column, the cards e asked and those
   found dead), and what they share (`ready`: `base` made, and the answers cleared; only
   `ready` is set before, as most calls ask nothing). */
typedef struct {
    int ready;
    Refill base;
    uint64_t asked[4], dead[4];
} RefillMemo;

static int refill_ask(const Rules *r, const Runs *p, int n, int i, int e, uint64_t talon,
                      uint64_t last, RefillMemo *memo);

/* Whether `refill_dead` is asked of a way onto e: e a start-rank card in no run (a talon
   card), under rules that ask it. */
static inline int refill_of(const Rules *r, const Runs *p, int e) {
    return r->start_cards >> e & 1 && refill_asked(r) && !(p->in >> e & 1);
}

/* board.Problem._refill_dead (the rest in `refill_ask`). */
static inline int refill_dead(const Rules *r, const Runs *p, int n, int i, int e,
                              uint64_t talon, uint64_t last, RefillMemo *memo) {
    return refill_of(r, p, e) && refill_ask(r, p, n, i, e, talon, last, memo);
}

/* For `top_covered`'s first look (whether t has a way at all): a way onto e that
   `refill_dead` is asked of waits in *wait (1) for the ways that need no play-out. */
static inline int refill_wait(const Rules *r, const Runs *p, int e, uint64_t *wait) {
    if (!refill_of(r, p, e)) return 0;
    *wait |= 1ULL << e;
    return 1;
}

/* Whether a way that waited (`refill_wait`) is left by `refill_dead`. */
static int refill_any(const Rules *r, const Runs *p, int n, uint64_t talon, uint64_t last,
                      const uint64_t *wait, RefillMemo *memo) {
    for (int i = 0; i < 4; i++)
        for (uint64_t x = wait[i]; x; x &= x - 1)
            if (!refill_ask(r, p, n, i, __builtin_ctzll(x), talon, last, memo)) return 1;
    return 0;
}

static int top_covered(const Rules *r, const Trap *test, Runs *p, Fp h, int n, uint64_t talon,
                       uint64_t up, uint64_t last, Counts count, unsigned walk,
                       const Grown *was);

/* The runs a way's `top_grow` walks at first when it sends the cards `gone` up for good
   (taken out of the talon and the last cards; `walk`: the runs the way changed): every run
   if one of them lies in a run, where Python's walk, made from scratch, finds it a last card
   again when the card on it may leave (the others: no walk adds them, as the sets only
   lost cards). */
static inline unsigned gone_walk(const Runs *p, uint64_t gone, unsigned walk) {
    return p->in & gone ? all_runs(p) : walk;
}

/* board.Problem._risen: the counts once `card`, the next of its suit, has gone up. */
static inline Counts risen(const Rules *r, int card, Counts count) {
    count.of[card / 13] = (uint8_t)(r->rel[card] + 1);
    return count;
}

/* `top_covered` once `top_grow` has grown its sets (what it leaves the ways in `grown`). */
static inline __attribute__((always_inline)) int top_covered_grown(
    const Rules *r, const Trap *test, Runs *p, Fp h, int n, uint64_t talon, uint64_t up,
    uint64_t last, Counts count, const Grown *grown) {
    int t = r->reserve[n - 1];
    RefillMemo memo;
    memo.ready = 0;
    uint64_t bit = 1ULL << t, onto = PARENTS[t] & last;
    int rises = !(suit_below(r, t) & ~up);
    if (n - 1 <= test->deepest) { /* the test's last card: whether it has a way */
        uint64_t wait[4] = {0, 0, 0, 0}; /* per column, the ways `refill_dead` is asked of */
        int any = rises;
        for (uint64_t x = onto; x && !any; x &= x - 1) any = lands(p, __builtin_ctzll(x), last);
        for (int i = 0; i < 4 && !any; i++) {
            int f = p->cards[i][0];
            uint64_t mine = p->below[i][p->len[i]];
            any = last >> f & 1 && !(suit_below(r, f) & ~up);
            for (uint64_t x = PARENTS[f] & last & ~mine; x && !any; x &= x - 1) {
                int e = __builtin_ctzll(x);
                if (lands(p, e, last & ~mine)) any = !refill_wait(r, p, e, &wait[i]);
            }
        }
        if (!any) any = refill_any(r, p, n, talon, last, wait, &memo);
        return !any;
    }
    /* Above it, each way in turn (none: the card stays; `lands` false: `landings_hold` has no
       way either; a way `refill_dead` leaves is none). */
    uint8_t card[8] = {(uint8_t)t}; /* t as a run, with room to copy in 8-byte words */
    uint64_t one[2], firsts = p->firsts, in = p->in;
    Landing g = {p, h, n, talon, up, last | bit, count, card, grown};
    for (uint64_t x = onto; x; x &= x - 1) /* t goes onto e */
        if (!landings_hold(r, test, &g, __builtin_ctzll(x), card, 1, -1, last)) return 0;
    for (int i = 0; i < 4; i++) { /* a column empties, and t fills it */
        int f = p->cards[i][0];
        if (last >> f & 1 && !(suit_below(r, f) & ~up)) { /* its cards go up */
            Fp hq = h;
            Kept kept;
            keep(p, i, &kept);
            if (sums_links(test, n - 1)) {
                column_links(&hq, kept.cards, kept.len, -1);
                link_add(&hq, t, 52);
            }
            alone(p, i, card, one);
            p->in = (in & ~kept.below[kept.len]) | bit;
            uint64_t gone = suit_below(r, f) | 1ULL << f;
            int stays = top_covered(r, test, p, hq, n - 1, talon & ~gone, up | 1ULL << f,
                                    (last & ~gone) | bit, risen(r, f, count),
                                    gone_walk(p, gone, 1u << i), grown);
            put_back(p, i, &kept);
            p->firsts = firsts;
            p->in = in;
            if (!stays) return 0;
        }
        uint64_t mine = p->below[i][p->len[i]];
        for (uint64_t x = PARENTS[f] & last & ~mine; x; x &= x - 1) /* it goes onto e */
            if (!refill_dead(r, p, n, i, __builtin_ctzll(x), talon, last, &memo) &&
                !landings_hold(r, test, &g, __builtin_ctzll(x), p->cards[i], p->len[i], i,
                               last & ~mine))
                return 0;
    }
    if (rises) { /* t goes up, the lower cards of its suit up before it (`gone_walk`): asked
                    last, as the ways that may let the next card leave are told sooner */
        uint64_t gone = suit_below(r, t) | bit;
        if (!top_covered(r, test, p, h, n - 1, talon & ~gone, up | bit, last & ~gone,
                         risen(r, t, count), gone_walk(p, gone, 0), grown))
            return 0;
    }
    return 1;
}

/* board.Problem._top_covered: whether the top of the reserve's n cards, or one below it down
   to index `deepest`, can never leave it, in every way the cards above may have left (each
   way with its runs: the columns from their first cards, the cards landed on a card; h:
   their links; `walk` and `was`: the runs the way changed and what the caller's `top_grow`
   left, as `top_grow` takes them). The memo is not asked for the test's last card: its
   answer costs less than a key. */
static int top_covered(const Rules *r, const Trap *test, Runs *p, Fp h, int n, uint64_t talon,
                       uint64_t up, uint64_t last, Counts count, unsigned walk,
                       const Grown *was) {
    Grown grown;
    top_grow(r, p, p->firsts, talon, walk, was, &grown, &up, &last, &count);
    CoveredMemo *m = NULL;
    Fp key = {0, 0};
    if (keyed(test, n)) {
        key = covered_key(h, n, talon & ~last, up, last, count);
        m = &test->memo[key.a >> 20 & (COVERED_MEMO - 1)];
        if (m->a == key.a && m->check == (uint32_t)(key.b >> 32)) return m->answer;
    }
    int answer = top_covered_grown(r, test, p, h, n, talon, up, last, count, &grown);
    if (m) *m = (CoveredMemo){key.a, (uint32_t)(key.b >> 32), answer};
    return answer;
}

/* board.Problem._landings: whether the next card stays in every way `more` (m cards) lands on
   card e (and t alone fills column i, if i >= 0; `more` is then that column's cards): e
   covered, and if e lies in no run (a talon card put on a card before), on each card it fits
   on in `last`, covered too. */
static int landings_hold(const Rules *r, const Trap *test, const Landing *g, int e,
                         const uint8_t *more, int m, int i, uint64_t last) {
    uint8_t landed[64];
    const uint8_t *put = more;
    int under[2], ways = 0, len = m;
    uint64_t put_mask = i >= 0 ? g->runs->below[i][m] : 1ULL << *more;
    int e_run = top_run_with(g->runs, e);
    if (e_run >= 0) {
        under[ways++] = -1;
    } else {
        put_mask |= 1ULL << e;
        landed[0] = (uint8_t)e;
        copy_words(landed + 1, more, m);
        put = landed;
        len = m + 1;
        for (uint64_t x = PARENTS[e] & last; x; x &= x - 1) under[ways++] = __builtin_ctzll(x);
    }
    /* the sets once e is covered, for every way */
    uint64_t talon_e = g->talon, up_e = g->up, last_e = g->last;
    Counts count_e = g->count;
    covered(r, e, &talon_e, &up_e, &last_e, &count_e);
    /* the links every way changes alike: column i's first card on e, t first in it; or t on
       e (summed only for a call that keys its answer or asks further: `keyed`) */
    Fp h = g->h;
    int links = sums_links(test, g->n - 1);
    if (links && i >= 0) {
        link_sub(&h, more[0], 52);
        link_add(&h, more[0], e);
        link_add(&h, *g->t, 52);
    } else if (links) {
        link_add(&h, *g->t, e);
    }
    Runs *q = g->runs;
    int count = q->count;
    uint64_t firsts = q->firsts, in = q->in;
    Kept kept_i, kept_j = {0}; /* kept_j: set wherever it is put back (GCC cannot tell) */
    if (i >= 0) keep(q, i, &kept_i);
    for (int k = 0; k < ways; k++) {
        uint64_t rest = talon_e, u = up_e, l = last_e, one[2];
        Counts c = count_e;
        Made made;
        Fp hq = h;
        int on = e;
        if (under[k] >= 0) {
            covered(r, under[k], &rest, &u, &l, &c);
            on = under[k];
            if (links) link_add(&hq, e, on);
        }
        int was = under[k] >= 0 ? top_run_with(q, on) : e_run;
        if (was >= 0) keep(q, was, &kept_j);
        int j = top_put(q, was, on, put, len, put_mask, &made);
        /* the cards above `on` left the runs, those put on it are in one, and t in column i */
        q->in = (was >= 0 ? in & ~kept_j.below[kept_j.len] : in) | made.below[q->len[j]] |
                (i >= 0 ? 1ULL << *g->t : 0);
        if (links && was >= 0) { /* the run's cards above `on` left it */
            for (int a = q->len[j] - len; a < kept_j.len; a++)
                link_sub(&hq, kept_j.cards[a], kept_j.cards[a - 1]);
        } else if (links) { /* `on` starts a run */
            link_add(&hq, on, 53);
        }
        if (i >= 0) alone(q, i, g->t, one);
        int stays = top_covered(r, test, q, hq, g->n - 1, rest, u, l, c,
                                1u << j | (i >= 0 ? 1u << i : 0), g->grown);
        if (was >= 0) put_back(q, was, &kept_j);
        if (i >= 0) put_back(q, i, &kept_i);
        q->count = count;
        q->firsts = firsts;
        q->in = in;
        if (!stays) return 0;
    }
    return 1;
}

/* board.Problem._top_trapped: with top-or-all moves, whether the reserve's top card or one
   of the next `lookahead` can never leave it, from what may happen before it does (the
   least sets `up` and `last`, grown card by card down the reserve, in each way the cards
   above may have left). */
static int top_trapped(const Rules *r, const Work *w) {
    int n = w->reserve, deepest = n - 1 - r->lookahead;
    uint64_t talon = talon_in_reach(r, w, deepest > 0 ? deepest : 0);
    if (deepest < 0) deepest = 0;
    CoveredMemo *memo = r->covered_off ? NULL : covered_memo;
    Trap test = {memo, deepest, n, memo ? deepest + 2 : INT_MAX};
    Fp h = {0, 0};
    int links = sums_links(&test, n);
    if (links) h = covered_tag(r, n, deepest);
    Runs cols;
    uint64_t below[4][53], last = 0;
    columns_as_top_runs(w, &cols, below, links ? &h : NULL);
    for (int i = 0; i < 4; i++) last |= 1ULL << w->col[i][w->len[i] - 1];
    uint64_t held = r->reserve_mask[n] | (w->cards & ~talon);
    uint64_t up = ALL_CARDS & ~(held | talon | cols.in);
    Counts count; /* per suit, the cards that may be up: from the start rank, in order */
    memcpy(count.of, w->found, sizeof count.of);
    Grown none = {0, 0, 0};
    return top_covered(r, &test, &cols, h, n, talon, up, last, count, all_runs(&cols), &none);
}

/* -- the reserve test in the last pass, following the stock's order ------------------- */

#define DRAWS 53 /* the most draws a last pass has left, and its start */

/* The talon as the last pass deals it (`board.Problem._timed_trapped`'s `deal`): its cards in
   order, the waste first; the draws left (`lots`); the cards that never come to the waste's
   top (`stays`); the reserve test's deepest card (index); the cards by place: each card's
   place in `cards` (`at`), the cards before place q (`upto[q]`), all of them (`in`); the
   thread's `untimed_memo` and the test's number (`timed_serial`), read once a test. */
typedef struct {
    uint8_t cards[64], at[52];
    int size, pointer, draw, lots, deepest;
    uint64_t stays, in, upto[65];
    CoveredMemo *memo;
    uint64_t serial;
} Deal;

/* The places in the talon of the cards of `cards` there. */
static uint64_t places_of(const Deal *s, uint64_t cards) {
    uint64_t places = 0;
    for (uint64_t x = cards & s->in; x; x &= x - 1) places |= 1ULL << s->at[__builtin_ctzll(x)];
    return places;
}

/* The cards that may be the waste's top once the talon's first `end` cards are drawn: from
   the last drawn down to the first that may not have left it (the waste's top leaves when
   it may go up or be a last card), skipping those that landed on a card (`gone`);
   `passed`: the places of the cards that may have left (gone, or in `up` or `last`). */
static inline uint64_t exposed_at(const Deal *s, int end, uint64_t passed, uint64_t gone) {
    uint64_t stuck = ~passed & ((1ULL << end) - 1);
    uint64_t under = stuck ? s->upto[63 - __builtin_clzll(stuck)] : 0;
    return s->upto[end] & ~under & ~gone;
}

/* `_timed_grow`'s times as sets: after each draw j (from a call's start on), the cards that
   may be up and may be last cards by then (each grows with j). A card's time in
   `board.Problem._timed_grow` is the first j whose set holds it. `moved`: the draws whose
   sets differ from the draw's before (bit j; the call's start always), so that the sets at
   any draw are those at the last of these up to it. */
typedef struct {
    uint64_t up[DRAWS], last[DRAWS], moved;
} Drawn;

/* The draws of `d` past `start` at which its sets change. */
static inline uint64_t moved_after(const Drawn *d, int start) {
    return d->moved & ~0ULL << (start + 1);
}

/* What a call of `timed_covered` grows from: its caller's sets (`was`, from draw `start`
   on), less the cards the way covers (`covered_up`, `covered_last`), with t's own (`seed_up`,
   `seed_last`), from the draw the way may be taken (`start`). `card`: t, if the way is
   quiet, changing the caller's rules only as `quiet_draws` looks at (t goes up, or onto a
   card in a run, or a column goes whole onto one), else -1; `pair`: the two cards it laid
   one on the other (a = -1: none; `above`: the cards from b up to its run's last but one).
   `runs`: the runs' key for the memos (`runs_sum`), summed at the test's first call and
   updated by each way where it changes the runs. */
typedef struct {
    int a, b;
    uint64_t above;
} Pair;

typedef struct {
    const Drawn *was;
    uint64_t covered_up, covered_last, seed_up, seed_last;
    int start, card;
    Pair pair;
    const Fp *runs;
} Grow;

/* For `timed_grow`: the cards that may go up next, with the cards `up` up (those not up
   that lie one rank above an up card, or start the suit). */
static inline uint64_t rise_next(const Rules *r, uint64_t up) {
    const uint64_t aces = 1ULL | 1ULL << 13 | 1ULL << 26 | 1ULL << 39;
    return ((up << 1 & ~aces) | (up & aces << 12) >> 12 | r->start_cards) & ~up;
}

/* For `timed_grow`: `up` with each suit's cards of `free` sent up in order, from its next
   one (`rise_next`). */
static uint64_t rise_free(const Rules *r, uint64_t free, uint64_t up) {
    for (;;) {
        uint64_t next = free & rise_next(r, up);
        if (!next) return up;
        up |= next;
    }
}

/* Whether the reserve's top t (the n-th card) has a way to leave with the sets `up` and
   `last` (`_timed_covered` with no card below it to ask of). */
static int timed_way(const Rules *r, const Runs *p, int t, uint64_t up, uint64_t last) {
    if (!(suit_below(r, t) & ~up)) return 1;
    for (uint64_t x = PARENTS[t] & last; x; x &= x - 1) {
        int e = __builtin_ctzll(x);
        if (run_with(p, e) >= 0 || PARENTS[e] & last) return 1;
    }
    for (int i = 0; i < 4; i++) {
        int f = p->cards[i][0];
        if (last >> f & 1 && !(suit_below(r, f) & ~up)) return 1;
        uint64_t mine = p->below[i][p->len[i]];
        for (uint64_t x = PARENTS[f] & last & ~mine; x; x &= x - 1) {
            int e = __builtin_ctzll(x);
            if (run_with(p, e) >= 0 || PARENTS[e] & last & ~mine) return 1;
        }
    }
    return 0;
}

/* The last-pass test's walk down the runs: from each run's stop, a card becomes a possible
   last card once the card on it may leave (up, or a last card with a possible last card to
   go onto); each stop is kept where the walk stopped. Returns `last` grown. */
static inline __attribute__((always_inline)) uint64_t walk_runs(const Runs *p, int *stop,
                                                                uint64_t up, uint64_t last) {
    for (int i = 0; i < p->count; i++) {
        const uint8_t *col = p->cards[i];
        int k = stop[i];
        for (; k >= 0; k--) {
            int on = col[k + 1];
            if (last >> col[k] & 1) continue;
            if (!(up >> on & 1) && !(last >> on & 1 && PARENTS[on] & last)) break;
            last |= 1ULL << col[k];
        }
        stop[i] = k;
    }
    return last;
}

/* For the test's last card t (`timed_grow` with a `watch`): whether it may have a way in the
   sets `up`, `last` (the base at the last draw) closed under `timed_grow`'s rules with every
   talon card not landed nor held taken as the waste's top at once. Those hold the timed
   sets at every draw (each draw's waste's tops are some of those cards, its base lies in
   the last draw's, and the rules only grow with their sets), and `timed_way` only grows
   with its sets: with no way here t has none there either. (On skill draw 1 with three
   passes deal 263, of the last cards that have no way in their base 79 % have none here
   either, and only 1 in 391,000 has one in the timed sets.) */
static int untimed_way(const Rules *r, const Runs *p, const Deal *s, uint64_t gone,
                       uint64_t held, int t, uint64_t up, uint64_t last) {
    uint64_t exposed = s->in & ~gone & ~held, free_of = ~p->firsts;
    int stop[MAX_RUNS];
    for (int i = 0; i < p->count; i++) stop[i] = p->len[i] - 2;
    for (;;) {
        uint64_t was_up = up, was_last = last;
        for (uint64_t fresh = children_of(last) & exposed & ~last; fresh;) { /* onto last cards */
            last |= fresh;
            fresh = children_of(fresh) & exposed & ~last;
        }
        up = rise_free(r, (last | exposed) & free_of, up);
        last = walk_runs(p, stop, up, last);
        if (up == was_up && last == was_last) return timed_way(r, p, t, up, last);
    }
}

/* Answers remembered within a test (a thread's, the last one in each slot): its calls meet
   the same inputs again by other ways of the cards above (skill draw 1 with three passes,
   deal 263: half the last cards past their base, and 39 % and 27 % of the calls of the two
   cards above the last card). `untimed_way`'s answers by what changes within a test: the
   runs, `gone`, `up` and `last`; with the test's number (`timed_serial`), from which the
   deal, `held` and the card follow (a test has one last card). The runs as `runs_key` sums
   them, in any order, as the answers are alike. 96 bits kept, as the tables
   (`covered_memo`). */
#define UNTIMED_MEMO (1 << 12)
static uint32_t check_of(Fp k);
static _Thread_local CoveredMemo untimed_memo[UNTIMED_MEMO];
static _Thread_local uint64_t timed_serial;

/* The runs' part of `untimed_memo`'s keys, added to *a and *b: a run by its cards as a set,
   its first card and whether it is a column, summed in any order. The card k places into a
   run lies k ranks below its first card (ranks wrap from ace to king), of its colour if k is
   even, else of the other: in a run of 26 cards or fewer no two places ask the same rank
   and colour (places k and k + 13 differ in colour), so the set and the first card give
   its order. A longer one adds its cards in order, hashed. (The bound was 13: on skill draw
   1 with three passes deal 12, with a column of 14 cards or more, nine in ten of the last
   cards' calls went unremembered.) A call's key is its caller's with the runs its way
   changed taken out and put back as they are (`run_key`, `runs_sum`). */
static inline Fp run_key(const Runs *p, int i) {
    int len = p->len[i];
    uint64_t first = (uint64_t)p->cards[i][0] << 1 | (i < 4);
    uint64_t cards = p->below[i][len];
    if (len > 26) { /* the order too */
        const uint8_t *col = p->cards[i];
        uint64_t order = 0x93c467e37db0c7a4ULL;
        for (int k = 0; k < len; k++) order = (order ^ col[k]) * 0x100000001b3ULL;
        cards ^= mix_b(order);
        first ^= order << 7;
    }
    return (Fp){mum(cards ^ 0x882efa98ec4e6c89ULL, first ^ 0xd1310ba698dfb5acULL),
                (cards ^ 0xc0ac29b7c97c50ddULL) * (first * 2 + 0xb8e1afed6a267e97ULL)};
}

/* The runs' key (`run_key` summed), or its update: `sum`, the key before run i changed
   (`was`: its key then, a = b = 0 if it is new), with run i as it is now. */
static inline Fp runs_sum(const Runs *p) {
    Fp sum = {0, 0};
    for (int i = 0; i < p->count; i++) {
        Fp k = run_key(p, i);
        sum.a += k.a;
        sum.b += k.b;
    }
    return sum;
}

static inline Fp runs_sum_with(Fp sum, Fp was, const Runs *p, int i) {
    Fp now = run_key(p, i);
    return (Fp){sum.a - was.a + now.a, sum.b - was.b + now.b};
}

/* `untimed_way`, remembered (`untimed_memo`); `sum`: the runs' key (`runs_sum`). */
static int untimed_way_kept(const Rules *r, const Runs *p, const Deal *s, uint64_t gone,
                            uint64_t held, int t, uint64_t up, uint64_t last, const Fp *sum) {
    Fp runs = *sum;
    uint64_t ha = s->serial + runs.a, hb = gone + runs.b;
    uint64_t a = mix_a(ha ^ mum(up ^ 0xbe5466cf34e90c6cULL, last ^ 0xc52821e638d01377ULL));
    uint64_t b = mix_b(hb + mum(up ^ 0x9216d5d98979fb1bULL, last ^ 0xbf84d5b5b5470917ULL));
    if (!a) a = 1;
    CoveredMemo *m = &s->memo[a >> 20 & (UNTIMED_MEMO - 1)];
    if (m->a == a && m->check == (uint32_t)(b >> 32)) return m->answer;
    int answer = untimed_way(r, p, s, gone, held, t, up, last);
    *m = (CoveredMemo){a, (uint32_t)(b >> 32), answer};
    return answer;
}

/* The slot of `untimed_memo` for a call of `timed_covered`, its key in *key: by all the
   call reads that changes within a test, the runs and `gone` (as `untimed_way_kept`), n,
   its start, and its base at each draw from there (its caller's sets less the cards its way
   covers, with t's own; hashed at the draws it changes, which are some of those at which
   the caller's change): its sets grow from those alone (the rest of `Grow` only spares
   steps), and so do those of every call under it. */
static CoveredMemo *grown_slot(const Deal *s, uint64_t gone, const Grow *g, int n, Fp runs,
                               Fp *key) {
    uint64_t a = (s->serial ^ ((uint64_t)n << 8 | (uint64_t)g->start)) + runs.a, b = gone + runs.b;
    uint64_t was_up = 0, was_last = 0; /* the base at each draw it changes */
    for (uint64_t draws = moved_after(g->was, g->start) | 1ULL << g->start; draws;
         draws &= draws - 1) {
        int j = __builtin_ctzll(draws);
        uint64_t up = (g->was->up[j] & ~g->covered_up) | g->seed_up;
        uint64_t last = (g->was->last[j] & ~g->covered_last) | g->seed_last;
        if (up == was_up && last == was_last && j > g->start) continue;
        was_up = up;
        was_last = last;
        a = mix_a(a ^ mum(up ^ 0xbe5466cf34e90c6cULL, last ^ 0xc52821e638d01377ULL) ^ (uint64_t)j);
        b = b * 0x9e3779b97f4a7c15ULL + (up ^ (last << 29 | last >> 35)) + (uint64_t)j;
    }
    key->a = a ? a : 1;
    key->b = mix_b(b ^ a);
    return &s->memo[key->a >> 20 & (UNTIMED_MEMO - 1)];
}

/* Whether talon card c (not gone, not held) may be the waste's top once the first `end` are
   drawn: every card drawn after it gone or in `left`. */
static int may_be_top(const Deal *s, int end, int c, uint64_t left) {
    int q = s->at[c];
    if (q >= end) return 0;
    for (int k = end - 1; k > q; k--)
        if (!(left >> s->cards[k] & 1)) return 0;
    return 1;
}

/* The pair whose upper card is b, if b lies on a card in a run. */
static int pair_of(const Runs *p, int b, Pair *out) {
    int j = run_with(p, b);
    if (j < 0) return 0;
    const uint8_t *col = p->cards[j];
    int len = p->len[j], m = 0;
    while (col[m] != b) m++;
    if (!m) return 0;
    uint64_t above = 0;
    for (int k = m; k < len - 1; k++) above |= 1ULL << col[k];
    *out = (Pair){col[m - 1], b, above};
    return 1;
}

/* For `timed_grow`, a quiet way (`Grow.card`): the first draw from its start at which its
   rules may give a card its base lacks (its caller's sets less the covered cards, with t's
   own), lots + 1 if none; the base's sets filled into *out up to it. The caller's sets at
   each draw are closed under the caller's rules, and a quiet way changes those only so: t
   is a last card (and up, if it went up), on which a card it fits on may land from the
   waste or move off a card in a run (the pairs whose upper card is one of t's children);
   the card it laid on a card in a run (t, or a column's first card, f) lies on it, a new
   pair; f is no first card, and may go up, as t may if it lies on a card, and the card
   after t in its suit once t went up; a card the way took from the waste lies in a run,
   and the covered cards (e, its suit from it up) make no card possible, so the cards that
   may be the waste's top are the caller's or fewer. So until one of those rules applies
   the base is closed: asked draw by draw (a pair as the walk down its run reaches it, below
   last cards only). */
static int quiet_draws(const Rules *r, const Runs *p, const Deal *s, uint64_t gone,
                       uint64_t held, const Grow *g, Drawn *out) {
    uint64_t t = 1ULL << g->card, kids = children_of(t), looked = 0, firsts = p->firsts;
    uint64_t rising = (t | (g->pair.a >= 0 ? 1ULL << g->pair.b : 0) |
                       (g->seed_up ? rise_next(r, t) & ~r->start_cards : 0)) &
                      ~firsts;
    uint64_t waste = s->in & ~gone & ~held; /* the cards that may yet be the waste's top */
    Pair pairs[3];
    int np = 0;
    if (g->pair.a >= 0) pairs[np++] = g->pair;
    const Drawn *was = g->was;
    int j = g->start;
    out->moved = moved_after(was, j) | 1ULL << j; /* the base changes where its caller's do */
    for (; j <= s->lots; j++) {
        uint64_t up = (was->up[j] & ~g->covered_up) | g->seed_up;
        uint64_t last = (was->last[j] & ~g->covered_last) | g->seed_last;
        int end = s->pointer + j * s->draw;
        if (end > s->size) end = s->size;
        uint64_t rises = rising & rise_next(r, up);
        if (rises & last) return j;
        uint64_t top = ((rises & ~last) | (kids & ~last)) & waste, left = up | last | gone;
        for (; top; top &= top - 1)
            if (may_be_top(s, end, __builtin_ctzll(top), left)) return j;
        for (uint64_t x = kids & last & ~looked; x; x &= x - 1) { /* they may leave by t now */
            looked |= x & -x;
            np += pair_of(p, __builtin_ctzll(x), &pairs[np]);
        }
        for (int k = 0; k < np; k++) {
            const Pair *q = &pairs[k];
            if (!(last >> q->a & 1) && !(q->above & ~last) &&
                (up >> q->b & 1 || (last >> q->b & 1 && PARENTS[q->b] & last)))
                return j;
        }
        out->up[j] = up;
        out->last[j] = last;
    }
    return j;
}

/* board.Problem._timed_grow, as sets draw by draw into *out (from g->start on). With fewer
   steps: a quiet way's draws at which its base is closed are taken as they are
   (`quiet_draws`); a walk down a run goes on from where it stopped (the sets only grow), and
   a round walks only when `up` or `last` changed since the last walk; the cards that may be
   the waste's top are found by their places (`exposed_at`); a draw that adds nothing to the
   sets from the caller and whose lot's top card (the waste's top alone then) may neither
   land nor go up is passed at once. The cards that may land or go up next are kept while
   the sets stay (`kids`, `next`: a round that finds none skips `rise_free`). `watch` (the
   reserve's top, or -1): stop as soon as it has a way (`timed_way`, asked first of the
   base at the last draw, which the sets hold, then again only of new sets), with 1 (the
   sets then unfinished); else 0, with the draws at which the sets change (`out->moved`). */
static int timed_grow(const Rules *r, const Runs *p, const Deal *s, uint64_t gone,
                      uint64_t held, const Grow *g, int watch, Drawn *out) {
    const Drawn *was = g->was;
    int start = g->start, lots = s->lots, stop[MAX_RUNS];
    if (watch >= 0) {
        uint64_t up = (was->up[lots] & ~g->covered_up) | g->seed_up;
        uint64_t last = (was->last[lots] & ~g->covered_last) | g->seed_last;
        if (timed_way(r, p, watch, up, last)) return 1; /* the sets only grow from these */
        if (!untimed_way_kept(r, p, s, gone, held, watch, up, last, g->runs)) return 0;
    }
    uint64_t moved = 0, out_up = ~0ULL, out_last = ~0ULL; /* `out->moved`, the sets last put */
    if (g->card >= 0) {
        start = quiet_draws(r, p, s, gone, held, g, out);
        if (start > lots) return 0; /* the base's sets: the watched card has no way (above) */
        moved = out->moved & ((1ULL << start) - 1);
        if (start > g->start) {
            out_up = out->up[start - 1];
            out_last = out->last[start - 1];
        }
    }
    uint64_t up = (was->up[start] & ~g->covered_up) | g->seed_up;
    uint64_t last = (was->last[start] & ~g->covered_last) | g->seed_last;
    uint64_t firsts = p->firsts, walked_up = ~0ULL, walked_last = ~0ULL;
    /* `children_of(last)` and `rise_next(up)` as of the sets `kids_of` and `next_of`; the sets
       `timed_way` was last asked of */
    uint64_t kids = 0, kids_of = 0, next = 0, next_of = ~0ULL, asked_up = ~0ULL,
             asked_last = ~0ULL;
    for (int i = 0; i < p->count; i++) stop[i] = p->len[i] - 2;
    uint64_t seen = up | last | gone, passed = places_of(s, seen);
    for (int j = start, drawn = 0; j <= lots; j++) {
        int end = s->pointer + j * s->draw;
        if (end > s->size) end = s->size;
        if (j > start) {
            uint64_t more_up = was->up[j] & ~g->covered_up & ~up;
            uint64_t more_last = was->last[j] & ~g->covered_last & ~last;
            if (!(more_up | more_last)) { /* a draw that brings nothing new is passed at once */
                int q = end - 1;
                while (q >= drawn && gone >> s->cards[q] & 1) q--;
                /* the lot's top card that has not landed, if any, is the waste's top alone */
                uint64_t top = q >= drawn ? 1ULL << s->cards[q] : 0;
                if (!(top & ~held & (kids | next | up | last))) {
                    out->up[j] = up;
                    out->last[j] = last;
                    drawn = end;
                    continue;
                }
            }
            up |= more_up;
            last |= more_last;
        }
        drawn = end;
        for (;;) {
            uint64_t was_up = up, was_last = last;
            if ((up | last) & ~seen) {
                passed |= places_of(s, (up | last) & ~seen);
                seen |= up | last;
            }
            uint64_t exposed = exposed_at(s, end, passed, gone) & ~held;
            if (last != kids_of) { /* `children_of` of a union is the union of theirs */
                kids |= children_of(last & ~kids_of);
                kids_of = last;
            }
            for (uint64_t fresh = kids & exposed & ~last; fresh;) { /* onto last cards */
                last |= fresh;
                fresh = children_of(fresh) & exposed & ~last;
            }
            if (up != next_of) {
                next = rise_next(r, up);
                next_of = up;
            }
            uint64_t free = (last | exposed) & ~firsts;
            if (free & next) up = rise_free(r, free, up);
            if (up != walked_up || last != walked_last) {
                walked_up = up;
                walked_last = last;
                last = walk_runs(p, stop, up, last);
            }
            if (up == was_up && last == was_last) break;
        }
        if (watch >= 0 && (up != asked_up || last != asked_last)) { /* asked of new sets */
            if (timed_way(r, p, watch, up, last)) return 1;
            asked_up = up;
            asked_last = last;
        }
        if (up != out_up || last != out_last) moved |= 1ULL << j;
        out_up = out->up[j] = up;
        out_last = out->last[j] = last;
    }
    out->moved = moved;
    return 0;
}

/* The first draw from `start` at which `card` is in the sets `sets` (d->up or d->last), or
   NEVER (the sets grow with the draws: asked where they change). */
#define NEVER 255 /* board._NEVER */
static int first_in(const Drawn *d, const uint64_t *sets, int start, int card) {
    for (uint64_t draws = moved_after(d, start) | 1ULL << start; draws; draws &= draws - 1) {
        int j = __builtin_ctzll(draws);
        if (sets[j] >> card & 1) return j;
    }
    return NEVER;
}

/* The first draw from `start` at which every lower card of `card`'s suit may be up. */
static int rises_from(const Rules *r, const Drawn *d, int start, int card) {
    uint64_t below = suit_below(r, card);
    for (uint64_t draws = moved_after(d, start) | 1ULL << start; draws; draws &= draws - 1) {
        int j = __builtin_ctzll(draws);
        if (!(below & ~d->up[j])) return j;
    }
    return NEVER;
}

static int timed_covered(const Rules *r, const Deal *s, Runs *p, int n, uint64_t gone,
                         const Grow *g);

/* board.Problem._timed_landings: whether the next card stays in every way `more` (m cards)
   lands on card e (and t alone fills column i, if i >= 0; `more` is then that column's
   cards, `mine` their bits), with the sets `d` grown from draw `start`. */
static int timed_landings_hold(const Rules *r, const Deal *s, Runs *p, int n, int e,
                               const uint8_t *more, int m, int i, uint64_t mine,
                               uint64_t gone, const Drawn *d, int start, const Fp *runs) {
    const uint8_t *card = &r->reserve[n - 1];
    int at = first_in(d, d->last, start, e), under[2], ways = 0, len = m;
    uint8_t landed[56];
    const uint8_t *put = more;
    uint64_t put_mask = i >= 0 ? mine : 1ULL << *more, final = d->last[s->lots];
    int e_run = run_with(p, e);
    if (e_run >= 0) {
        under[ways++] = -1;
    } else {
        put_mask |= 1ULL << e;
        landed[0] = (uint8_t)e;
        memcpy(landed + 1, more, (size_t)m);
        put = landed;
        len = m + 1;
        for (uint64_t x = PARENTS[e] & final & ~mine; x; x &= x - 1)
            under[ways++] = __builtin_ctzll(x);
    }
    int count = p->count;
    uint64_t firsts = p->firsts;
    Kept kept_i, kept_j;
    Fp key_i = {0, 0}, sum; /* column i's `run_key` as it was; the runs' key for the next card */
    if (i >= 0) keep(p, i, &kept_i);
    if (i >= 0) key_i = run_key(p, i);
    for (int k = 0; k < ways; k++) {
        Grow next = {d, r->from[e], 1ULL << e, 0, 1ULL << *card, at, *card, {e, *more, 0}, NULL};
        if (i >= 0) next.pair.above = mine & ~(1ULL << more[m - 1]); /* the column's but its last */
        uint64_t left = gone | 1ULL << e, one[2];
        int on = e;
        if (under[k] >= 0) {
            on = under[k];
            next.card = -1;
            next.covered_up |= r->from[on];
            next.covered_last |= 1ULL << on;
            left |= 1ULL << on;
        }
        int was = under[k] >= 0 ? run_with(p, on) : e_run;
        if (was >= 0) keep(p, was, &kept_j);
        Fp key_j = was >= 0 ? run_key(p, was) : (Fp){0, 0};
        Made made;
        int j = top_put(p, was, on, put, len, put_mask, &made);
        if (i >= 0) alone(p, i, card, one);
        sum = runs_sum_with(*runs, key_j, p, j);
        if (i >= 0) sum = runs_sum_with(sum, key_i, p, i);
        next.runs = &sum;
        int stays = timed_covered(r, s, p, n - 1, left, &next);
        if (was >= 0) put_back(p, was, &kept_j);
        if (i >= 0) put_back(p, i, &kept_i);
        p->count = count;
        p->firsts = firsts;
        if (!stays) return 0;
    }
    return 1;
}

/* board.Problem._timed_covered: whether the top of the reserve's n cards, or one below it
   down to index `deepest`, can never leave it (its sets grown as `g` says). */
static int timed_ways_hold(const Rules *r, const Deal *s, Runs *p, int n, uint64_t gone,
                           const Drawn *d, int start, const Fp *runs);

static int timed_covered(const Rules *r, const Deal *s, Runs *p, int n, uint64_t gone,
                         const Grow *g) {
    int t = r->reserve[n - 1];
    uint64_t held = r->reserve_mask[n] | s->stays;
    Drawn d;
    if (n - 1 <= s->deepest) /* the test's last card: whether it has a way */
        return !timed_grow(r, p, s, gone, held, g, t, &d);
    CoveredMemo *m = NULL;
    Fp key, runs = *g->runs;
    if (n - 3 <= s->deepest) { /* the two cards above the last: remembered */
        m = grown_slot(s, gone, g, n, runs, &key);
        if (m->a == key.a && m->check == check_of(key)) return m->answer;
    }
    timed_grow(r, p, s, gone, held, g, -1, &d);
    int answer = timed_ways_hold(r, s, p, n, gone, &d, g->start, &runs);
    if (m) *m = (CoveredMemo){key.a, check_of(key), answer};
    return answer;
}

/* Whether the top t of the reserve's n cards stays in every way it may leave, with its sets
   `d` grown from draw `start` (`timed_covered`). */
static int timed_ways_hold(const Rules *r, const Deal *s, Runs *p, int n, uint64_t gone,
                           const Drawn *d, int start, const Fp *runs) {
    int t = r->reserve[n - 1], lots = s->lots;
    uint64_t up = d->up[lots], last = d->last[lots], bit = 1ULL << t;
    int rise = rises_from(r, d, start, t);
    if (rise < NEVER) { /* t goes up */
        Grow next = {d, 0, 0, bit, bit, rise, t, {-1, -1, 0}, runs};
        if (!timed_covered(r, s, p, n - 1, gone, &next)) return 0;
    }
    for (uint64_t x = PARENTS[t] & last; x; x &= x - 1) /* t goes onto e */
        if (!timed_landings_hold(r, s, p, n, __builtin_ctzll(x), &r->reserve[n - 1], 1, -1, 0,
                                 gone, d, start, runs))
            return 0;
    for (int i = 0; i < 4; i++) { /* a column empties, and t fills it */
        int f = p->cards[i][0];
        if (last >> f & 1 && !(suit_below(r, f) & ~up)) { /* its cards go up */
            int at = first_in(d, d->last, start, f), rises = rises_from(r, d, start, f);
            Grow next = {d, 0, 0, 0, bit, at > rises ? at : rises, -1, {-1, -1, 0}, NULL};
            Kept kept;
            Fp key_i = run_key(p, i);
            uint64_t firsts = p->firsts, one[2];
            keep(p, i, &kept);
            alone(p, i, &r->reserve[n - 1], one);
            Fp sum = runs_sum_with(*runs, key_i, p, i);
            next.runs = &sum;
            int stays = timed_covered(r, s, p, n - 1, gone, &next);
            put_back(p, i, &kept);
            p->firsts = firsts;
            if (!stays) return 0;
        }
        uint64_t mine = p->below[i][p->len[i]];
        for (uint64_t x = PARENTS[f] & last & ~mine; x; x &= x - 1) /* it goes onto e */
            if (!timed_landings_hold(r, s, p, n, __builtin_ctzll(x), p->cards[i], p->len[i], i,
                                     mine, gone, d, start, runs))
                return 0;
    }
    return 1;
}

/* board.Problem._timed_trapped */
static int timed_trapped(const Rules *r, const Work *w, uint64_t stays) {
    Deal s;
    uint8_t positions[64];
    s.size = talon_cards(r, w, s.cards, positions);
    s.pointer = w->pointer;
    s.draw = r->draw;
    s.lots = (s.size - s.pointer + s.draw - 1) / s.draw;
    s.stays = stays;
    s.in = 0;
    s.upto[0] = 0;
    for (int q = 0; q < s.size; q++) {
        s.at[s.cards[q]] = (uint8_t)q;
        s.in |= 1ULL << s.cards[q];
        s.upto[q + 1] = s.in;
    }
    int n = w->reserve;
    s.deepest = n - 1 - r->lookahead > 0 ? n - 1 - r->lookahead : 0;
    Runs cols;
    uint64_t below[4][53], last = 0;
    columns_as_top_runs(w, &cols, below, NULL);
    for (int i = 0; i < 4; i++) last |= 1ULL << w->col[i][w->len[i] - 1];
    uint64_t up = ALL_CARDS & ~(r->reserve_mask[n] | w->cards | cols.in);
    Drawn first; /* the sets now, at every draw */
    for (int j = 0; j <= s.lots; j++) {
        first.up[j] = up;
        first.last[j] = last;
    }
    first.moved = 1;
    Fp runs = runs_sum(&cols);
    Grow g = {&first, 0, 0, 0, 0, 0, -1, {-1, -1, 0}, &runs};
    timed_serial += 0x9e3779b97f4a7c15ULL;
    s.serial = timed_serial;
    s.memo = untimed_memo;
    return timed_covered(r, &s, &cols, n, 0, &g);
}

/* board.Problem.reserve_stuck */
static int reserve_stuck(const Rules *r, const Work *w) {
    int n = w->reserve;
    if (!n || r->mode == MODE_ANY_RUN || r->returns) return 0;
    for (int i = 0; i < 4; i++)
        if (!w->len[i]) return 0; /* not a position of play: the reserve refills columns */
    if (r->mode != MODE_ALL) {
        if (!follows_stock(r, w)) return top_trapped(r, w);
        int deepest = n - 1 - r->lookahead;
        return timed_trapped(r, w, w->cards & ~talon_in_reach(r, w, deepest > 0 ? deepest : 0));
    }
    Runs cols;
    uint64_t below[4][53];
    columns_as_runs(w, &cols, below);
    int stay = n - 1 - r->lookahead;
    Frozen fz;
    fz.frozen = r->frozen_by[n];
    freeze(r, &cols, &fz, all_runs(&cols));
    return doomed(r, &cols, &fz, n, talon_in_reach(r, w, stay > 0 ? stay : 0), 0, r->lookahead,
                  0);
}

/* board.Problem._stays_on: whether card c (-1: none), lying on p, stays on it until L */
static int stays_on(const Rules *r, int c, int p, uint64_t members, uint64_t stays,
                    const uint64_t *beneath) {
    if (c < 0) return 0;
    return (suit_below(r, c) & members) && !(PARENTS[c] & ~(1ULL << p) & ~(stays | beneath[c]));
}

/* board.Problem._top_may_leave: may_leave, but not when a card that stays until L covers
   the card or the parent it would go onto */
static int top_may_leave(const Rules *r, int card, const unsigned *left, uint64_t up,
                         uint64_t lasts, uint64_t members, uint64_t in_columns,
                         const int *under, const int *on, const uint64_t *beneath) {
    unsigned ranks = left[card / 13];
    int lowest = (ranks & -ranks) == r->rank_bit[card];
    uint64_t free = ~up & (lasts | ~members);
    if (!lowest && !(PARENTS[card] & free)) return 0;
    uint64_t stays = up | (members & ~lasts); /* never a last card before L */
    if (stays_on(r, on[card], card, members, stays, beneath)) return 0;
    if (lowest) return 1;
    int twin = TWIN_SUIT[card / 13] * 13 + card % 13;
    for (int e = 0; e < 2; e++) {
        int p = PARENT[card][e];
        if (!(free >> p & 1)) continue;
        int c = in_columns >> p & 1 ? on[p] : -1;
        if (c < 0) return 1;
        if (c == card || stays_on(r, c, p, members, stays, beneath)) continue;
        if (c == twin && !(PARENTS[c] & ~(1ULL << p) & ~(stays | beneath[c]))) {
            int pinned = 0;
            for (int k = 0; k < 2 && !pinned; k++) {
                int q = CHILD[card][k];
                pinned = (in_columns >> q & 1) && (under[q] == card || under[q] == c) &&
                         (suit_below(r, q) & members);
            }
            if (pinned) continue;
        }
        return 1;
    }
    return 0;
}

/* Whether a card of the column lies on one of lower rank. */
static int column_rises(const Rules *r, const uint8_t *col, int len) {
    for (int k = 1; k < len; k++)
        if (r->rel[col[k]] > r->rel[col[k - 1]]) return 1;
    return 0;
}

/* `cards_deadlocked` once some card of the columns lies on one of lower rank (else none is
   held: each column goes up or away from its top down). */
static int cards_play_out(const Rules *r, const uint8_t *const *cols, const int *lens,
                          int count, uint64_t up);

/* board.Problem._cards_deadlocked: `_top_deadlocked`'s play-out of the columns `cols`
   (count of them, lens[i] cards each), `up` the cards taken as up (never a last card). */
static int cards_deadlocked(const Rules *r, const uint8_t *const *cols, const int *lens,
                            int count, uint64_t up) {
    int rises = 0;
    for (int i = 0; i < count && !rises; i++) rises = column_rises(r, cols[i], lens[i]);
    return rises && cards_play_out(r, cols, lens, count, up);
}

static int cards_play_out(const Rules *r, const uint8_t *const *cols, const int *lens,
                          int count, uint64_t up) {
    unsigned left[4] = {0, 0, 0, 0};
    uint64_t members = 0, lasts = 0;
    int ends[MAX_PIECES];
    /* board.Problem._lies, for the columns' cards only */
    int under[52], on[52];
    uint64_t beneath[52];
    for (int i = 0; i < count; i++) {
        ends[i] = lens[i];
        const uint8_t *col = cols[i];
        uint64_t mask = 0;
        for (int k = 0; k < ends[i]; k++) {
            int card = col[k];
            left[card / 13] |= r->rank_bit[card];
            beneath[card] = mask;
            mask |= 1ULL << card;
            members |= 1ULL << card;
            under[card] = k ? col[k - 1] : -1;
            on[card] = k + 1 < ends[i] ? col[k + 1] : -1;
        }
        if (ends[i]) lasts |= 1ULL << col[ends[i] - 1];
    }
    uint64_t in_columns = members;
    int moved = 1;
    while (moved) {
        moved = 0;
        for (int i = 0; i < count; i++)
            while (ends[i]) {
                int card = cols[i][ends[i] - 1];
                unsigned ranks = left[card / 13];
                if (!top_may_leave(r, card, left, up, lasts, members, in_columns, under, on,
                                   beneath))
                    break;
                left[card / 13] = ranks & ~(unsigned)r->rank_bit[card];
                members &= ~(1ULL << card);
                lasts &= ~(1ULL << card);
                if (--ends[i]) lasts |= 1ULL << cols[i][ends[i] - 1];
                moved = 1;
            }
    }
    for (int i = 0; i < count; i++)
        if (ends[i]) return 1;
    return 0;
}

/* What `emit` keeps of the parent's columns for the children that leave one as it was: a
   child's column is the parent's when its length and last card are (a step and `settle`
   only put cards on a column, take its last ones, or refill an emptied one with a reserve
   card, which lay in no column). Per column, made when first asked (the masks): its hash,
   whether a card of it lies on one of lower rank (`column_rises`), and what `lost`'s column
   test asks of the foundations (`column_needs`). */
#define KEPT_NEEDS 8
typedef struct {
    const Work *parent;
    unsigned hashed, rising_known, needs_known;
    uint8_t rising[4];
    int8_t needs[4]; /* `column_needs`'s count, -1: too many to keep */
    uint64_t a[4], b[4], need[4][KEPT_NEEDS];
} KnownColumns;

/* The columns of w that are `known`'s parent's as they were (bits). */
static unsigned columns_kept(const Work *w, const KnownColumns *known) {
    const Work *p = known->parent;
    unsigned same = 0;
    for (int i = 0; i < 4; i++) {
        int n = w->len[i];
        if (n == p->len[i] && (!n || w->col[i][n - 1] == p->col[i][n - 1])) same |= 1u << i;
    }
    return same;
}

/* The cards on the foundations, from their counts. */
static uint64_t up_cards(const Rules *r, const uint8_t *found) {
    uint64_t up = 0;
    for (int suit = 0; suit < 4; suit++) {
        uint64_t all = 0x1FFFULL << (13 * suit);
        int n = found[suit];
        up |= n == 13 ? all : all & ~r->from[suit * 13 + (r->start_rank + n) % 13];
    }
    return up;
}

/* `top_deadlocked`'s play-outs remembered (a thread's, the last one in each slot): the
   search meets the same columns with the same cards up again and again, with the talon,
   the reserve or the pointer changed. By a fingerprint of the columns in their order, the
   cards up and the start rank (all the play-out reads); 96 bits kept, as the tables. */
#define DEADLOCK_MEMO (1 << 16)
typedef struct {
    uint64_t a;
    uint32_t check;
    int32_t dead;
} DeadlockMemo;
static _Thread_local DeadlockMemo deadlock_memo[DEADLOCK_MEMO];

static Fp columns_in_order(const Fp *h);

/* board.Problem._top_deadlocked (`same`: the columns `known` may answer for; `hashes`: the
   columns' own, `column_hashes`, or NULL: no memo) */
static int top_deadlocked(const Rules *r, const Work *w, unsigned same, KnownColumns *known,
                          const Fp *hashes) {
    int rises = 0;
    for (int i = 0; i < 4 && !rises; i++) {
        if (same >> i & 1) {
            if (!(known->rising_known >> i & 1)) {
                known->rising[i] = (uint8_t)column_rises(r, w->col[i], w->len[i]);
                known->rising_known |= 1u << i;
            }
            rises = known->rising[i];
        } else {
            rises = column_rises(r, w->col[i], w->len[i]);
        }
    }
    if (!rises) return 0;
    uint64_t up = up_cards(r, w->found);
    const uint8_t *cols[4];
    int lens[4];
    for (int i = 0; i < 4; i++) {
        cols[i] = w->col[i];
        lens[i] = w->len[i];
    }
    if (!hashes) return cards_play_out(r, cols, lens, 4, up);
    Fp order = columns_in_order(hashes);
    uint64_t rank = (uint64_t)r->start_rank << 56;
    uint64_t a = mix_a(order.a ^ mum(up ^ 0x882efa98ec4e6c89ULL, rank ^ 0xd1310ba698dfb5acULL));
    uint64_t b = mix_b(order.b + mum(up ^ 0xc0ac29b7c97c50ddULL, rank ^ 0xb8e1afed6a267e96ULL));
    a = a ? a : 1;
    DeadlockMemo *m = &deadlock_memo[a >> 20 & (DEADLOCK_MEMO - 1)];
    if (m->a == a && m->check == (uint32_t)(b >> 32)) return m->dead;
    int dead = cards_play_out(r, cols, lens, 4, up);
    *m = (DeadlockMemo){a, (uint32_t)(b >> 32), dead};
    return dead;
}

/* How many talon cards deep `refill_dead` follows what the landed-on card lies on. */
#define REFILL_CHAIN 4

/* `cards_deadlocked`'s answers for `refill_lies_dead`, in a small table of each thread's own:
   the same pieces come again and again as the reserve test walks its ways. A piece is
   told by its cards (as bits), its first card and its length: each card of it fits on
   the one under it, so up to 13 cards their order follows. Its play-out does not depend
   on the pieces' order, so they are summed, in two hashes, with `up` and the problem. */
#define PLAY_MEMO 16384
struct PlayMemo {
    uint64_t a, b; /* b == 0: empty */
    int32_t dead;
};
static _Thread_local PlayMemo play_memo[PLAY_MEMO];

static inline void play_key(uint64_t *a, uint64_t *b, uint64_t cards, int first, int len) {
    uint64_t x = (cards ^ (uint64_t)first << 52 ^ (uint64_t)len << 58) * 0x9e3779b97f4a7c15ULL;
    *a += x ^ x >> 29;
    uint64_t y = (cards + (uint64_t)first * 0x51ed27ULL + (uint64_t)len) * 0xc2b2ae3d27d4eb4fULL;
    *b += y ^ y >> 31;
}

/* For `refill_dead`: whether the columns are deadlocked in every way the talon cards
   chain[0..c-1] (chain[0] the one the moved run lies on, each on the next) lie on card b
   (and, if b is a talon card too, b on a card it fits on). */
static int refill_lies_dead(const Rules *r, const Refill *f, int b, uint8_t *chain, int c) {
    const Runs *p = f->p;
    int j = run_with(p, b);
    if (j < 0) { /* b is a talon card put on a card before T */
        if (c == REFILL_CHAIN) return 0;
        chain[c] = (uint8_t)b;
        for (uint64_t x = PARENTS[b] & f->targets; x; x &= x - 1)
            if (!refill_lies_dead(r, f, __builtin_ctzll(x), chain, c + 1)) return 0;
        return 1;
    }
    int at = 0; /* b's index in run j */
    while (p->cards[j][at] != b) at++;
    int whole = at == f->top[j], moved = f->top[f->i] + 1; /* on run j's cards that stay */
    uint64_t chained = 0;
    for (int k = 0; k < c; k++) chained |= 1ULL << chain[k];
    int m = (whole ? at + 1 : 1) + c + moved;
    unsigned apart = 1U << f->i | (unsigned)whole << j; /* runs not in place as they are */
    int keyed = m <= 13 && !(f->unkeyed & ~apart);
    uint64_t a = f->key_a - f->part_a[f->i], h = f->key_b - f->part_b[f->i];
    if (whole) a -= f->part_a[j], h -= f->part_b[j];
    play_key(&a, &h, (whole ? f->piece[j] : 1ULL << b) | chained | f->piece[f->i],
             whole ? p->cards[j][0] : b, m);
    h |= 1;
    PlayMemo *memo = &f->memo[(a ^ a >> 31) & (PLAY_MEMO - 1)];
    if (keyed && memo->a == a && memo->b == h) return memo->dead;
    const uint8_t *cols[MAX_PIECES];
    int lens[MAX_PIECES], count = 0;
    uint8_t piece[64];
    uint8_t t = (uint8_t)f->t;
    m = 0;
    if (whole) {
        memcpy(piece, p->cards[j], (size_t)at + 1);
        m = at + 1;
    } else {
        piece[m++] = (uint8_t)b;
    }
    for (int k = c - 1; k >= 0; k--) piece[m++] = chain[k];
    memcpy(piece + m, p->cards[f->i], (size_t)moved);
    m += moved;
    cols[count] = piece;
    lens[count++] = m;
    for (int k = 0; k < p->count; k++) {
        if (k == f->i || (k == j && whole)) continue;
        cols[count] = p->cards[k];
        lens[count++] = f->top[k] + 1;
    }
    cols[count] = &t;
    lens[count++] = 1;
    int dead = cards_deadlocked(r, cols, lens, count, f->up);
    if (keyed) *memo = (PlayMemo){a, h, dead};
    return dead;
}

/* For `refill_ask`: the pieces' masks and the play-outs' memo key's parts (`Refill`; the
   top-or-all test's runs keep only the whole run's mask, `columns_as_top_runs`). */
static void refill_key(const Rules *r, Refill *f) {
    const Runs *p = f->p;
    f->key_a = r->salt ^ f->up * 0x9e3779b97f4a7c15ULL ^ (uint64_t)f->t << 56;
    f->key_b = f->up ^ ~r->salt;
    f->unkeyed = 0;
    f->memo = play_memo;
    for (int k = 0; k < p->count; k++) {
        uint64_t a = 0, b = 0, piece = 0;
        for (int q = 0; q <= f->top[k]; q++) piece |= 1ULL << p->cards[k][q];
        f->piece[k] = piece;
        play_key(&a, &b, piece, p->cards[k][0], f->top[k] + 1);
        f->part_a[k] = a;
        f->part_b[k] = b;
        f->key_a += a;
        f->key_b += b;
        if (f->top[k] >= 13) f->unkeyed |= 1U << k;
    }
}

/* board.Problem._refill_dead: whether, when column i (run i) goes whole onto card e at T and
   the reserve's top t (of n cards) fills it, the columns are then deadlocked
   (`cards_deadlocked` on the cards sure to be in place). `talon`, `last`: the sets before T
   (e's talon chain lies on cards of `last` without run i). */
static int refill_ask(const Rules *r, const Runs *p, int n, int i, int e, uint64_t talon,
                      uint64_t last, RefillMemo *memo) {
    uint64_t bit = 1ULL << e;
    Refill *f = &memo->base;
    if (memo->ready && memo->asked[i] & bit) return (memo->dead[i] & bit) != 0;
    if (!memo->ready) {
        memo->ready = 1;
        memset(memo->asked, 0, sizeof memo->asked);
        memset(memo->dead, 0, sizeof memo->dead);
        f->p = p;
        f->t = r->reserve[n - 1];
        uint64_t seen = talon | last | r->reserve_mask[n];
        for (int j = 0; j < p->count; j++) {
            int k = 0;
            while (k < p->len[j] - 1 && !(last >> p->cards[j][k] & 1)) k++;
            f->top[j] = k;
            seen |= p->below[j][p->len[j]];
        }
        f->up = ALL_CARDS & ~seen;
        refill_key(r, f);
    }
    f->i = i;
    f->targets = last & ~p->below[i][p->len[i]];
    uint8_t chain[REFILL_CHAIN + 1];
    int dead = refill_lies_dead(r, f, e, chain, 0);
    memo->asked[i] |= bit;
    if (dead) memo->dead[i] |= bit;
    return dead;
}

/* Where the run that carries card k of `col` away starts, k lying above a lower card of its
   suit: above the nearest such card if any run moves, else at k alone. */
static inline int carried_from(const Rules *r, const uint8_t *col, int k, int any_run) {
    if (!any_run) return k;
    int suit = col[k] / 13, rank = r->rel[col[k]], first = k;
    do first--;
    while (col[first] / 13 != suit || r->rel[col[first]] > rank);
    return first + 1;
}

/* `lost`'s test of column i: a card that lies above a lower card of its suit and can never
   leave (each card it would go onto under it or up). */
static int column_stuck(const Rules *r, const Work *w, int i) {
    int any_run = r->mode == MODE_ANY_RUN;
    int n = w->len[i];
    if (n < 3) return 0;
    const uint8_t *col = w->col[i];
    int lowest[4] = {13, 13, 13, 13}, made = 0;
    uint64_t under[53]; /* under[k]: the cards under index k, made up to `made` when asked */
    under[0] = 0;
    for (int k = 0; k < n; k++) {
        int card = col[k], suit = card / 13, rank = r->rel[card];
        if (rank > lowest[suit]) {
            for (; made <= k; made++) under[made + 1] = under[made] | 1ULL << col[made];
            int first = carried_from(r, col, k, any_run);
            int stuck = 1;
            for (int t = first; t <= k && stuck; t++)
                for (int e = 0; e < 2; e++) {
                    int p = PARENT[col[t]][e];
                    if (!(under[t] & (1ULL << p)) && !(w->found[p / 13] > r->rel[p])) stuck = 0;
                }
            if (stuck) return 1;
        } else if (rank < lowest[suit]) {
            lowest[suit] = rank;
        }
    }
    return 0;
}

/* `column_stuck` apart from the foundations: for each card of column i above a lower card
   of its suit, the cards it (with the run that carries it away) could go onto that are not
   under it, into need[] (`column_stuck` holds once all of one card's are up); the count, or
   -1 past `max`. */
static int column_needs(const Rules *r, const Work *w, int i, uint64_t *need, int max) {
    int any_run = r->mode == MODE_ANY_RUN;
    int n = w->len[i], count = 0;
    if (n < 3) return 0;
    const uint8_t *col = w->col[i];
    int lowest[4] = {13, 13, 13, 13};
    uint64_t under = 0; /* the cards under index k */
    for (int k = 0; k < n; under |= 1ULL << col[k], k++) {
        int card = col[k], suit = card / 13, rank = r->rel[card];
        if (rank > lowest[suit]) {
            int first = carried_from(r, col, k, any_run);
            uint64_t onto = 0, below = under;
            for (int t = k; t >= first; t--) {
                if (t < k) below &= ~(1ULL << col[t]); /* the cards under index t */
                onto |= PARENTS[col[t]] & ~below;
            }
            if (count == max) return -1;
            need[count++] = onto;
        } else if (rank < lowest[suit]) {
            lowest[suit] = rank;
        }
    }
    return count;
}

/* board.Problem.lost (`same`: the columns `known` may answer for, `columns_kept`) */
static int lost_kept(const Rules *r, const Work *w, unsigned same, KnownColumns *known,
                     const Fp *hashes) {
    if (r->mode == MODE_ALL) return deadlocked(r, w);
    if (r->returns || r->empty_any) return 0;
    if (r->mode == MODE_TOP_OR_ALL && top_deadlocked(r, w, same, known, hashes)) return 1;
    uint64_t up = 0;
    int up_made = 0;
    for (int i = 0; i < 4; i++) {
        if (same >> i & 1) {
            if (!(known->needs_known >> i & 1)) {
                known->needs[i] = (int8_t)column_needs(r, w, i, known->need[i], KEPT_NEEDS);
                known->needs_known |= 1u << i;
            }
            int count = known->needs[i];
            if (count >= 0) {
                if (count && !up_made) {
                    up = up_cards(r, w->found);
                    up_made = 1;
                }
                for (int k = 0; k < count; k++)
                    if (!(known->need[i][k] & ~up)) return 1;
                continue;
            }
        }
        if (column_stuck(r, w, i)) return 1;
    }
    return 0;
}

static int lost(const Rules *r, const Work *w) { return lost_kept(r, w, 0, NULL, NULL); }

static int won(const Work *w) { return w->found[0] + w->found[1] + w->found[2] + w->found[3] == 52; }

/* -- keys ------------------------------------------------------------------------------- */

static uint64_t mix_a(uint64_t x) { /* murmur3's finaliser */
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static uint64_t mix_b(uint64_t x) { /* splitmix64's finaliser, another constant set */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* The folded 128-bit product (wyhash's mixing step). */
static uint64_t mum(uint64_t x, uint64_t y) {
    __uint128_t r = (__uint128_t)x * y;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static int fresh_pointer(const Rules *r, const Work *w) {
    return r->draw == 1 || w->pointer % 3 == 0 || w->pointer == talon_size(w);
}

/* board.Problem.value */
static int32_t value_of(const Rules *r, const Work *w) {
    if (r->passes < 0) return fresh_pointer(r, w) ? 0 : w->pointer;
    return 64 * w->pass + w->pointer;
}

/* The columns' part of a key: the sum of each column's hash, so their order does not count
   (column symmetry). */
static inline __attribute__((always_inline)) void hash_column(const uint8_t *col, int n,
                                                              uint64_t *pa, uint64_t *pb) {
    int k = 0;
    uint64_t ha = 0x243f6a8885a308d3ULL ^ (uint64_t)n, hb = 0x13198a2e03707344ULL + (uint64_t)n;
    uint64_t word;
    for (; k + 8 <= n; k += 8) {
        memcpy(&word, col + k, 8);
        ha = mum(ha ^ word ^ 0xa4093822299f31d0ULL, 0x9e3779b97f4a7c15ULL);
        hb = mum(hb + word + 0x082efa98ec4e6c89ULL, 0xd6e8feb86659fd93ULL);
    }
    if (k < n) { /* the last word, without the bytes past the end */
        memcpy(&word, col + k, 8);
        word &= ~0ULL >> (8 * (8 - (n - k)));
        ha = mum(ha ^ word ^ 0xa4093822299f31d0ULL, 0x9e3779b97f4a7c15ULL);
        hb = mum(hb + word + 0x082efa98ec4e6c89ULL, 0xd6e8feb86659fd93ULL);
    }
    *pa = mix_a(ha);
    *pb = mix_b(hb);
}

static void hash_columns(const Work *w, uint64_t *pa, uint64_t *pb) {
    uint64_t a = 0, b = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t ca, cb;
        hash_column(w->col[i], w->len[i], &ca, &cb);
        a += ca;
        b += cb;
    }
    *pa = a;
    *pb = b;
}

/* Each column's hash (`hash_column`), those of the columns `same` (the parent's as they
   were) made once a parent: their sum is `hash_columns`'s, `columns_in_order` their order's
   too. */
static void column_hashes(const Work *w, unsigned same, KnownColumns *known, Fp *h) {
    for (int i = 0; i < 4; i++) {
        if (same >> i & 1) {
            if (!(known->hashed >> i & 1)) {
                hash_column(w->col[i], w->len[i], &known->a[i], &known->b[i]);
                known->hashed |= 1u << i;
            }
            h[i] = (Fp){known->a[i], known->b[i]};
        } else {
            hash_column(w->col[i], w->len[i], &h[i].a, &h[i].b);
        }
    }
}

/* The columns in their order (for `top_deadlocked`'s memo, whose play-out goes through them
   in order), from their hashes. */
static Fp columns_in_order(const Fp *h) {
    return (Fp){h[0].a + 3 * h[1].a + 5 * h[2].a + 7 * h[3].a,
                h[0].b + 9 * h[1].b + 11 * h[2].b + 13 * h[3].b};
}

/* The key's pointer class (board.Problem.key's `position`). */
static uint64_t pointer_class(const Rules *r, const Work *w) {
    if (fresh_pointer(r, w)) return 0;
    if (r->passes < 0) return (uint64_t)(w->pointer % 3);
    return 3 * (uint64_t)(uint32_t)w->pass + (uint64_t)(w->pointer % 3);
}

/* What a key's pointer class `position` adds to it, by xor: nothing for class 0, so the
   same state's keys in other classes are a xor away (`in_class`). */
static Fp make_position_tag(uint64_t position) {
    return (Fp){mix_a(position * 0x9e3779b97f4a7c15ULL), mix_b(position * 0xd6e8feb86659fd93ULL)};
}

/* The tags of the positions a search meets (3 * pass + pointer % 3), made once: every
   child's key and each of `passed`'s look-ups takes one or two. */
#define POSITION_TAGS 64
static Fp POSITION_TAG[POSITION_TAGS];

static void init_position_tags(void) {
    for (uint64_t p = 0; p < POSITION_TAGS; p++) POSITION_TAG[p] = make_position_tag(p);
}

static inline __attribute__((always_inline)) Fp position_tag(uint64_t position) {
    return position < POSITION_TAGS ? POSITION_TAG[position] : make_position_tag(position);
}

/* The key from the columns' hash and the rest of the state, with pointer class `position`. */
static inline __attribute__((always_inline)) Fp finish_key(uint64_t a, uint64_t b, const Work *w,
                                                          uint64_t position) {
    uint64_t meta = (uint64_t)w->reserve;
    /* The constants' top bits are set and the inputs' are not, so no factor is 0. */
    a = mix_a(a ^ mum(w->cards ^ 0x882efa98ec4e6c89ULL, w->prot ^ 0xbe5466cf34e90c6cULL) ^
              mum(meta ^ 0xc52821e638d01377ULL, 0xd1310ba698dfb5acULL));
    b = mix_b(b + mum(w->cards ^ 0xc0ac29b7c97c50ddULL, w->prot ^ 0x9216d5d98979fb1bULL) +
              mum(meta ^ 0xbf84d5b5b5470917ULL, 0xb8e1afed6a267e96ULL));
    Fp tag = position_tag(position);
    a ^= tag.a;
    return (Fp){a ? a : 1, b ^ tag.b};
}

/* The key of the same state as `key` (of pointer class `from`) with pointer class `to`,
   as `finish_key` makes it; but where an `a` came out 0 and was made 1, a key of no state
   (one proof missed, or one proof no state can match). */
static inline __attribute__((always_inline)) Fp in_class(Fp key, uint64_t from, uint64_t to) {
    Fp from_tag = position_tag(from), to_tag = position_tag(to);
    uint64_t a = key.a ^ from_tag.a ^ to_tag.a;
    return (Fp){a ? a : 1, key.b ^ from_tag.b ^ to_tag.b};
}

/* board.Problem.key, as a fingerprint */
static Fp key_of(const Rules *r, const Work *w) {
    uint64_t a, b;
    hash_columns(w, &a, &b);
    return finish_key(a, b, w, pointer_class(r, w));
}

/* -- tables ------------------------------------------------------------------------------ */

/* A key in a table: its `a` (which also places it: `a` & mask) and the top half of its
   `b`, so 96 of its 128 bits (see the top of the file); 16 bytes, four to a cache line. */
typedef struct {
    uint64_t a;
    uint32_t check; /* the key's b >> 32 */
    int32_t value;  /* dead table: the lowest value proved lost; run table: the index */
} Slot;

static uint32_t check_of(Fp k) { return (uint32_t)(k.b >> 32); }

typedef struct {
    Slot *slots;
    size_t mask, count; /* capacity - 1 (a power of two), entries */
    /* The dead table (see `table_room`): the last quarter of the search's budget begins
       at these seconds (by the clock) or nodes; `crowded` once it has (atomic). */
    double crowd_after;
    int64_t crowd_nodes;
    int crowded;
} Table;

static Slot *table_find(const Table *t, Fp k) {
    if (!t->slots) return NULL;
    size_t i = (size_t)k.a & t->mask;
    uint32_t check = check_of(k);
    for (;;) {
        Slot *s = &t->slots[i];
        if (!s->a) return NULL;
        if (s->a == k.a && s->check == check) return s;
        i = (i + 1) & t->mask;
    }
}

/* The dead table's slot for k, or NULL. With two threads one may add to it (under the
   team's lock) while the other reads (see `Team`): a slot's `a` is stored last and a grown
   table's slots before its mask, each with release order, so a reader sees a whole entry
   or none, and at worst misses one (no proof, no harm). Plain loads on x86. A reader
   that loads an old mask and then new slots probes only part of them, which may hold no
   empty slot (an empty table's mask is 0): so it stops after mask + 1 probes. */
static const Slot *dead_find(const Table *t, Fp k) {
    size_t mask = __atomic_load_n(&t->mask, __ATOMIC_ACQUIRE);
    const Slot *slots = __atomic_load_n(&t->slots, __ATOMIC_ACQUIRE);
    if (!slots) return NULL;
    size_t i = (size_t)k.a & mask;
    uint32_t check = check_of(k);
    for (size_t probes = 0; probes <= mask; probes++) {
        const Slot *s = &slots[i];
        uint64_t a = __atomic_load_n(&s->a, __ATOMIC_ACQUIRE);
        if (!a) return NULL;
        if (a == k.a && s->check == check) return s;
        i = (i + 1) & mask;
    }
    return NULL;
}

/* -- moves ------------------------------------------------------------------------------ */

typedef struct {
    const Rules *r;
    Child *out;
    int n;
    int32_t pass;     /* the parent's */
    int parent_clear; /* whole-column moves only, and the parent is not deadlocked */
    const Table *dead; /* the proved-lost states, or NULL (then no child is `weakest`) */
    uint64_t tops;     /* the waste tops drawing reaches, as card bits */
    int prune_swaps;   /* any-run moves and no autocomplete: see `exposes_use` */
    int covering;      /* the column of the talon card the step must cover, or -1 */
    const int8_t *column_of, *index_of; /* with any-run moves: where each column card lies */
    KnownColumns *known; /* what the parent's columns tell the children */
    /* A beam's: each child's `beam_score` with these weights, made where it is settled
       (no second `child_of` to score it), or NULL */
    int32_t *scores;
    int up, reserve;
} Emit;

/* Whether board.Problem.pointer_keys finds any for w: draw 3, unlimited passes, and a
   talon. */
static int pointer_dominance(const Rules *r, const Work *w) {
    return r->draw == 3 && r->passes < 0 && w->talon;
}

/* Whether board.Problem.stronger_keys finds any for w: with `pointer_dominance`, a fresh
   pointer (class 0) reaches only waste tops that every other pointer reaches too, after
   turning the waste over; so if a state of class 1 or 2 and the same rest is proved lost,
   whatever its pointer, so is this one (`dominated`). */
static int weakest(const Rules *r, const Work *w) {
    return pointer_dominance(r, w) && pointer_class(r, w) == 0;
}

/* board.Problem.stronger_keys, looked up in the dead table, for a `weakest` state. */
static int dominated(const Table *dead, Fp key) {
    return dead_find(dead, in_class(key, 0, 1)) || dead_find(dead, in_class(key, 0, 2));
}

/* The kinds of state `passed` looks up (board.Problem.earlier_passes): none; pointer class 1
   or 2; a fresh pointer; the end of the stock. */
enum { PASSED_NONE, PASSED_CLASS, PASSED_FRESH, PASSED_END };

/* Which kind of state w is for `passed`: draw 3, limited passes, and a talon. */
static uint8_t passed_kind(const Rules *r, const Work *w) {
    if (r->draw != 3 || r->passes < 0 || !w->talon) return PASSED_NONE;
    if (w->pointer == talon_size(w)) return PASSED_END;
    return w->pointer % 3 ? PASSED_CLASS : PASSED_FRESH;
}

static int is_dead(const Table *dead, Fp key, int32_t value);

/* board.Problem.earlier_passes, looked up in the dead table: the same state in an earlier
   pass (and of class 1 or 2, for a fresh pointer or the end of the stock, whatever its
   pointer; the end also in the same pass) is proved lost. `value` is 64 * pass + pointer;
   a class's position is 3 * pass + pointer % 3 (`pointer_class`). */
static int passed(const Table *dead, Fp key, int32_t value, int kind) {
    int32_t pass = value / 64, pointer = value % 64;
    if (kind == PASSED_CLASS) {
        uint64_t own = 3 * (uint64_t)pass + (uint64_t)(pointer % 3);
        for (int32_t a = 1; a < pass; a++) {
            Fp k = in_class(key, own, 3 * (uint64_t)a + (uint64_t)(pointer % 3));
            if (is_dead(dead, k, 64 * a + pointer)) return 1;
        }
        return 0;
    }
    int32_t last = kind == PASSED_END ? pass + 1 : pass;
    for (int32_t a = 1; a < last; a++)
        for (uint64_t c = 1; c <= 2; c++)
            if (dead_find(dead, in_class(key, 0, 3 * (uint64_t)a + c))) return 1;
    return 0;
}

/* Fetches the dead table's slots the search reads first for child c (`proved_lost`), as it
   is made: the table is far bigger than the caches, and the first child's turn comes soon
   after its siblings are made, too soon for a fetch asked then (`fetch_lookups` asks for
   each next child's). */
static void fetch_dead(const Table *dead, const Child *c) {
    size_t mask = __atomic_load_n(&dead->mask, __ATOMIC_ACQUIRE);
    const Slot *slots = __atomic_load_n(&dead->slots, __ATOMIC_ACQUIRE);
    if (!slots) return;
    __builtin_prefetch(&slots[c->key.a & mask]);
    if (c->weakest) {
        __builtin_prefetch(&slots[in_class(c->key, 0, 1).a & mask]);
        __builtin_prefetch(&slots[in_class(c->key, 0, 2).a & mask]);
    }
}

static int32_t beam_score(const Work *w, int up, int reserve);

/* A step's result: settle it, drop it if lost, key it. */
static void emit(Emit *e, Work *child, int priority, int draws, int card, int target) {
    if (e->n >= MAX_CHILDREN) return; /* cannot happen: at most a few dozen steps */
    if (e->covering >= 0 && target != e->covering) return; /* board.Problem._covering */
    settle(e->r, child, 1);
    /* With whole-column moves, a move to a foundation only takes cards out (and an emptied
       column's reserve card is alone): it cannot make a deadlock the parent had not. */
    unsigned same = columns_kept(child, e->known);
    Fp h[4];
    column_hashes(child, same, e->known, h);
    if (!(target == FOUNDATION && e->parent_clear) && lost_kept(e->r, child, same, e->known, h))
        return;
    uint64_t a = h[0].a + h[1].a + h[2].a + h[3].a, b = h[0].b + h[1].b + h[2].b + h[3].b;
    uint64_t position = pointer_class(e->r, child);
    Child *c = &e->out[e->n++];
    c->weakest = (uint8_t)(e->dead && weakest(e->r, child));
    c->earlier = e->dead ? passed_kind(e->r, child) : PASSED_NONE;
    c->added = (uint8_t)(child->pass != e->pass);
    c->won = (uint8_t)won(child);
    c->key = finish_key(a, b, child, position);
    if (e->dead) fetch_dead(e->dead, c);
    c->value = value_of(e->r, child);
    c->priority = (int8_t)priority;
    c->draws = (int16_t)draws;
    c->card = (int8_t)card;
    c->target = (int8_t)target;
    if (e->scores) e->scores[e->n - 1] = beam_score(child, e->up, e->reserve);
}

/* board.Problem.exposes_use: whether moving column i's cards from index s > 0 onto column j
   leaves the card it uncovers something to do next (why the search may skip it if not is
   told there). */
static int exposes_use(const Emit *e, const Work *w, int i, int s, int j) {
    const Rules *r = e->r;
    int exposed = w->col[i][s - 1], moved = w->col[i][s];
    if (goes_up(r, w, exposed)) return 1;
    for (int m = 0; m < 2; m++) {
        int card = CHILD[exposed][m];
        if (card == moved) continue;
        if (w->reserve && r->reserve[w->reserve - 1] == card) return 1;
        if (e->tops & (1ULL << card)) return 1;
        int count = w->found[card / 13];
        if (r->returns && count && r->rel[card] == count - 1) return 1;
        int k = e->column_of[card];
        if (k >= 0 && (k != i || e->index_of[card] >= s)) return 1;
    }
    uint64_t ends = 0; /* the other columns' last cards once the run has moved */
    for (int k = 0; k < 4; k++) {
        if (k == i) continue;
        if (k == j)
            ends |= 1ULL << w->col[i][w->len[i] - 1];
        else if (w->len[k])
            ends |= 1ULL << w->col[k][w->len[k] - 1];
        else if (r->empty_any)
            return 1;
    }
    for (int t = 0; t < s; t++) {
        int card = w->col[i][t];
        if (ends & (1ULL << PARENT[card][0] | 1ULL << PARENT[card][1])) return 1;
    }
    return 0;
}

/* board.Problem.placements_wait: draw 1 with unlimited passes, whole-column moves, no cards
   back from the foundations, no autocomplete. Then a talon card put on a column is marked
   (`prot`) and the next step must cover it (why is told in board.Problem.placement_used). */
static int placements_wait_top(const Rules *r);
static int placements_wait_app(const Rules *r);

static int placements_wait(const Rules *r) {
    return (r->draw == 1 && r->passes < 0 && r->mode == MODE_ALL && !r->returns &&
            !r->autocomplete) ||
           placements_wait_top(r) || placements_wait_app(r);
}

/* board.Problem.placements_wait_app: the same under the app's options (any-run moves, cards
   back from the foundations, no autocomplete); why is told there. */
static int placements_wait_app(const Rules *r) {
    return r->draw == 1 && r->passes < 0 && r->mode == MODE_ANY_RUN && r->returns &&
           !r->autocomplete;
}

/* board.Problem._mark: `prot` of a state where the talon's `card` was just put on a column's
   last card. */
static uint64_t mark(const Rules *r, uint64_t prot, int card) {
    if (placements_wait_app(r)) return (prot & CARD_BITS) | (uint64_t)(card + 1) << MARK_SHIFT;
    return 1ULL << card;
}

/* board.Problem._marked_bits: the talon card the next step must cover, or -1. */
static int marked_card(const Rules *r, uint64_t prot) {
    if (placements_wait_app(r)) return (int)(prot >> MARK_SHIFT) - 1;
    return prot ? bit_count(prot - 1) : -1;
}

/* board.Problem.placements_wait_top: the same with top-or-all moves (autocomplete or not),
   where a talon card waits only while the reserve has cards. */
static int placements_wait_top(const Rules *r) {
    return r->draw == 1 && r->passes < 0 && r->mode == MODE_TOP_OR_ALL && !r->returns;
}

/* board.Problem.placement_used: whether the talon's `card`, put on column j's last card, can
   be covered at once (by the reserve's top, another column's first card, or a talon card
   that can itself, and so on down). */
static int placement_used(const Rules *r, const Work *w, int card, int j) {
    uint64_t takers = 0; /* the cards that can be put on some card at once */
    if (w->reserve) takers |= 1ULL << r->reserve[w->reserve - 1];
    for (int k = 0; k < 4; k++)
        if (k != j && w->len[k]) takers |= 1ULL << w->col[k][0];
    if (placements_wait_top(r)) /* board.Problem._last_takers */
        for (int k = 0; k < 4; k++)
            if (k != j && w->len[k]) takers |= 1ULL << w->col[k][w->len[k] - 1];
    if (placements_wait_app(r)) { /* board.Problem._app_takers */
        if (goes_up(r, w, card)) return 0; /* settling would send it straight up */
        for (int k = 0; k < 4; k++)
            for (int q = 0; k != j && q < w->len[k]; q++) takers |= 1ULL << w->col[k][q];
        for (int suit = 0; suit < 4; suit++)
            if (w->found[suit])
                takers |= 1ULL << (suit * 13 + (r->start_rank + w->found[suit] - 1) % 13);
    }
    uint64_t reached = 1ULL << card, fresh = reached;
    while (fresh) {
        uint64_t below = children_of(fresh);
        if (below & takers) return 1;
        fresh = below & w->cards & ~reached;
        reached |= fresh;
    }
    return 0;
}

static void run_move(Emit *e, const Work *w, int i, int s, int j) {
    if (s && e->prune_swaps && !exposes_use(e, w, i, s, j)) return;
    Work child = *w;
    int card = w->col[i][s];
    lift(e->r, &child, i, s);
    for (int k = s; k < w->len[i]; k++) put(&child, j, w->col[i][k]);
    emit(e, &child, s == 0 ? EMPTIES_COLUMN : IN_TABLEAU, 0, card, j);
}

static int successors_of_free(const Rules *r, const Work *w, Child *out, const Table *dead,
                              int32_t *scores, int up, int reserve);

/* board.Problem.successors: every step, settled, with lost results left out; none if
   `reserve_stuck`. With `dead`, the children it may prove `dominated` are marked
   `weakest`. */
static int successors(const Rules *r, const Work *w, Child *out, const Table *dead) {
    return reserve_stuck(r, w) ? 0 : successors_of_free(r, w, out, dead, NULL, 0, 0);
}

/* `successors` of a state whose reserve is not stuck; with `scores`, each child's
   `beam_score` (`up` and `reserve` its weights) in them too. */
static int successors_of_free(const Rules *r, const Work *w, Child *out, const Table *dead,
                              int32_t *scores, int up, int reserve) {
    if (columns_cannot_hold(r, w) || closed_game_lost(r, w) || ends_game_lost(r, w)) return 0;
    KnownColumns known; /* its arrays made when first asked (the masks) */
    known.parent = w;
    known.hashed = known.rising_known = known.needs_known = 0;
    Emit e = {r, out, 0, w->pass, r->mode == MODE_ALL && !deadlocked(r, w), dead, 0,
              r->mode == MODE_ANY_RUN && !r->autocomplete, -1, NULL, NULL, &known,
              scores, up, reserve};
    Work child;
    int marks = placements_wait(r);
    if (marks && w->prot) e.covering = column_with_top(w, marked_card(r, w->prot));
    if (e.covering >= 0) e.prune_swaps = 0; /* every step onto the marked card */
    /* with top-or-all moves talon cards wait only while the reserve has cards */
    int placing = marks && (w->reserve || !placements_wait_top(r));
    int8_t column_of[52], index_of[52]; /* where each column card lies (any-run moves) */
    if (r->mode == MODE_ANY_RUN) {
        memset(column_of, -1, sizeof(column_of));
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < w->len[i]; k++) {
                column_of[w->col[i][k]] = (int8_t)i;
                index_of[w->col[i][k]] = (int8_t)k;
            }
        e.column_of = column_of;
        e.index_of = index_of;
    }
    int empty = -1;
    int8_t top_column[52]; /* `column_with_top`, looked up */
    memset(top_column, -1, sizeof top_column);
    for (int j = 3; j >= 0; j--) {
        if (!w->len[j]) empty = j;
        else top_column[w->col[j][w->len[j] - 1]] = (int8_t)j;
    }

    /* The reserve's top card. */
    if (w->reserve) {
        int card = r->reserve[w->reserve - 1];
        if (goes_up(r, w, card)) {
            child = *w;
            child.reserve--;
            child.found[card / 13]++;
            emit(&e, &child, TO_FOUNDATION, 0, card, FOUNDATION);
        }
        for (int k = 0; k < 2; k++) {
            int j = top_column[PARENT[card][k]];
            if (j >= 0) {
                child = *w;
                child.reserve--;
                put(&child, j, card);
                emit(&e, &child, FROM_RESERVE, 0, card, j);
            }
        }
        if (empty >= 0 && r->empty_any) {
            child = *w;
            child.reserve--;
            put(&child, empty, card);
            emit(&e, &child, FROM_RESERVE, 0, card, empty);
        }
    }

    /* The waste's top after any number of draws (the K+ macro). */
    if (w->talon) {
        uint64_t wanted = 0;
        for (int suit = 0; suit < 4; suit++)
            wanted |= 1ULL << (suit * 13 + (r->start_rank + w->found[suit]) % 13);
        for (int j = 3; j >= 0; j--) {
            int top = top_of(w, j);
            if (top >= 0) wanted |= 1ULL << CHILD[top][0] | 1ULL << CHILD[top][1];
        }
        uint8_t cards[64], positions[64];
        Reach steps[160];
        int n;
        if (r->draw == 1 && r->passes < 0 && empty < 0 && !e.prune_swaps) {
            n = reach_wanted(r, w, wanted, cards, positions, steps);
        } else {
            int size = talon_cards(r, w, cards, positions);
            n = reach(r, w->pointer, size, w->pass, steps);
        }
        for (int k = 0; k < n; k++) {
            int q = steps[k].q, draws = steps[k].draws, added = steps[k].added;
            int card = cards[q - 1];
            e.tops |= 1ULL << card; /* for `exposes_use`, before the run moves below */
            if (!(wanted & (1ULL << card)) && empty < 0) continue;
            int targets[3], t = 0;
            for (int m = 0; m < 2; m++) {
                int j = top_column[PARENT[card][m]];
                if (j >= 0) targets[t++] = j;
            }
            if (empty >= 0) targets[t++] = empty;
            if (goes_up(r, w, card)) {
                child = *w;
                take_from_talon(&child, positions[q - 1], card);
                child.pointer = (uint8_t)(q - 1);
                child.pass += added;
                child.found[card / 13]++;
                /* board.Problem.moves: with a pass limit, drawn to go up ranks as a talon move */
                int home = draws && r->passes >= 0 ? FROM_TALON : TO_FOUNDATION;
                emit(&e, &child, added ? NEXT_PASS : home, draws, card, FOUNDATION);
            }
            for (int m = 0; m < t; m++) {
                if (placing && targets[m] != empty && !placement_used(r, w, card, targets[m]))
                    continue;
                child = *w;
                take_from_talon(&child, positions[q - 1], card);
                child.pointer = (uint8_t)(q - 1);
                child.pass += added;
                put(&child, targets[m], card);
                if (placing && targets[m] != empty) child.prot = mark(r, w->prot, card);
                emit(&e, &child, added ? NEXT_PASS : FROM_TALON, draws, card, targets[m]);
            }
        }
    }

    /* Column cards: the last one to its foundation. */
    for (int i = 0; i < 4; i++) {
        int top = top_of(w, i);
        if (top >= 0 && goes_up(r, w, top)) {
            child = *w;
            up_from_column(r, &child, i);
            emit(&e, &child, TO_FOUNDATION, 0, top, FOUNDATION);
        }
    }

    /* Column runs onto the cards they fit. */
    if (r->mode == MODE_ANY_RUN) {
        for (int j = 3; j >= 0; j--) {
            int top = top_of(w, j);
            if (top < 0) continue;
            for (int m = 0; m < 2; m++) {
                int card = CHILD[top][m], i = column_of[card];
                if (i >= 0 && i != j) run_move(&e, w, i, index_of[card], j);
            }
        }
    } else {
        for (int i = 0; i < 4; i++) {
            int n = w->len[i];
            if (!n) continue;
            int starts[2] = {0, n - 1};
            int count = r->mode == MODE_TOP_OR_ALL && n > 1 ? 2 : 1;
            for (int k = 0; k < count; k++) {
                int s = starts[k];
                for (int m = 0; m < 2; m++) {
                    int j = top_column[PARENT[w->col[i][s]][m]];
                    if (j >= 0 && j != i) run_move(&e, w, i, s, j);
                }
            }
        }
    }
    /* Runs to an empty column: one stands for all; a whole column only if the reserve
       refills it. */
    if (empty >= 0 && r->empty_any) {
        for (int i = 0; i < 4; i++) {
            int n = w->len[i];
            if (!n || i == empty) continue;
            int starts[52], count = 0;
            if (r->mode == MODE_ANY_RUN) {
                for (int s = 0; s < n; s++) starts[count++] = s;
            } else if (r->mode == MODE_TOP_OR_ALL) {
                starts[count++] = 0;
                if (n > 1) starts[count++] = n - 1;
            } else {
                starts[count++] = 0;
            }
            for (int k = 0; k < count; k++)
                if (starts[k] || w->reserve) run_move(&e, w, i, starts[k], empty);
        }
    }

    /* Foundation tops back to a column. */
    if (r->returns) {
        for (int suit = 0; suit < 4; suit++) {
            int count = w->found[suit];
            if (!count) continue;
            int card = suit * 13 + (r->start_rank + count - 1) % 13;
            int targets[3], t = 0;
            for (int m = 0; m < 2; m++) {
                int j = top_column[PARENT[card][m]];
                if (j >= 0) targets[t++] = j;
            }
            if (empty >= 0 && r->empty_any) targets[t++] = empty;
            for (int m = 0; m < t; m++) {
                child = *w;
                put(&child, targets[m], card);
                child.found[suit]--;
                child.prot |= 1ULL << card;
                emit(&e, &child, FROM_FOUNDATION, 0, card, targets[m]);
            }
        }
    }
    return e.n;
}

/* The settled state a child of `w` stands for: its step played again. A step names a card
   and where it goes, and each card lies in one place, so the step says which move it is. */
static void child_of(const Rules *r, const Work *w, const Child *c, Work *out) {
    int card = c->card, target = c->target;
    *out = *w;
    if (w->reserve && r->reserve[w->reserve - 1] == card) {
        out->reserve--;
        if (target == FOUNDATION)
            out->found[card / 13]++;
        else
            put(out, target, card);
    } else if (w->cards & (1ULL << card)) {
        int position = r->order_at[card]; /* the card's, and before it the waste's */
        take_from_talon(out, position, card);
        out->pointer = (uint8_t)bit_count(w->talon & ((1ULL << position) - 1));
        out->pass += c->added;
        if (target == FOUNDATION) {
            out->found[card / 13]++;
        } else {
            if (placements_wait(r) && w->len[target] && (w->reserve || !placements_wait_top(r)))
                out->prot = mark(r, w->prot, card);
            put(out, target, card);
        }
    } else {
        int i = 0, s = -1;
        for (; i < 4 && s < 0; i++)
            for (int k = 0; k < w->len[i]; k++)
                if (w->col[i][k] == card) {
                    s = k;
                    break;
                }
        if (s >= 0) {
            i--;
            if (target == FOUNDATION) {
                up_from_column(r, out, i);
            } else {
                lift(r, out, i, s);
                for (int k = s; k < w->len[i]; k++) put(out, target, w->col[i][k]);
            }
        } else { /* from its foundation */
            put(out, target, card);
            out->found[card / 13]--;
            out->prot |= 1ULL << card;
        }
    }
    settle(r, out, 1);
}

/* -- hash tables ------------------------------------------------------------------------ */

typedef struct {
    size_t bytes, peak; /* what the search holds now, and at most */
    size_t limit;       /* what it may hold (0: no limit); growing past it fails */
    int over;           /* a growth was refused for the limit (not by the system) */
} Memory;

static void count_more(Memory *mem, size_t bytes) {
    mem->bytes += bytes;
    if (mem->bytes > mem->peak) mem->peak = mem->bytes;
}

static void *grow(Memory *mem, void *old, size_t old_bytes, size_t new_bytes) {
    if (mem->limit && new_bytes > old_bytes && mem->bytes + (new_bytes - old_bytes) > mem->limit) {
        mem->over = 1;
        return NULL;
    }
    void *fresh = realloc(old, new_bytes);
    if (!fresh) return NULL;
    count_more(mem, new_bytes - old_bytes);
    return fresh;
}

static void release(Memory *mem, void *block, size_t bytes) {
    free(block);
    mem->bytes -= bytes;
}

/* memset, called so that the compiler cannot merge it with the malloc before into a calloc:
   calloc leaves fresh pages unwritten, so a look-up maps them read-only and the first
   write then flushes the TLB of every core the search runs on (with two threads, an
   interrupt to the other core each time: about a quarter of the time went there). */
static void *(*volatile fill_zero)(void *, int, size_t) = memset;

/* Makes room for one more entry: at half full, the table's entries move to twice the
   slots, published for `dead_find` (slots before mask). The old slots are returned in
   *old (NULL if none) for the caller to release; 0 when out of memory. But once
   `crowded`, in the last quarter of a search's budget, the table fills to three quarters
   first: a late doubling takes time and memory the search can hardly use before it
   stops (a 10 s search of app draw 1 deal 9 doubled its table to 1 GB at 8.6 s, which
   took 2.8 s in fresh memory). At three quarters a look-up probes 8.5 slots on average
   to find a key missing, 2.5 at half. */
static int table_room(Table *t, Memory *mem, Slot **old) {
    *old = NULL;
    if (t->slots && 2 * (t->count + 1) <= t->mask + 1) return 1;
    if (t->slots && __atomic_load_n(&t->crowded, __ATOMIC_RELAXED) &&
        4 * (t->count + 1) <= 3 * (t->mask + 1))
        return 1;
    size_t cap = t->slots ? 2 * (t->mask + 1) : 1024;
    Slot *slots = grow(mem, NULL, 0, cap * sizeof(Slot));
    if (!slots) return 0;
    fill_zero(slots, 0, cap * sizeof(Slot));
    if (t->slots) {
        for (size_t i = 0; i <= t->mask; i++) {
            Slot *s = &t->slots[i];
            if (!s->a) continue;
            size_t j = (size_t)s->a & (cap - 1);
            while (slots[j].a) j = (j + 1) & (cap - 1);
            slots[j] = *s;
        }
        *old = t->slots;
    }
    __atomic_store_n(&t->slots, slots, __ATOMIC_RELEASE);
    __atomic_store_n(&t->mask, cap - 1, __ATOMIC_RELEASE);
    return 1;
}

/* The slot for k, added with `value` if new (published for `dead_find`: `a` last); NULL
   when out of memory. Grows by doubling at half full, so the table holds at most four
   slots per entry. */
static Slot *table_put(Table *t, Memory *mem, Fp k, int32_t value, int *added) {
    Slot *old;
    size_t old_bytes = t->slots ? (t->mask + 1) * sizeof(Slot) : 0;
    if (!table_room(t, mem, &old)) return NULL;
    if (old) release(mem, old, old_bytes);
    size_t i = (size_t)k.a & t->mask;
    uint32_t check = check_of(k);
    for (;;) {
        Slot *s = &t->slots[i];
        if (!s->a) {
            s->check = check;
            s->value = value;
            __atomic_store_n(&s->a, k.a, __ATOMIC_RELEASE);
            t->count++;
            *added = 1;
            return s;
        }
        if (s->a == k.a && s->check == check) {
            *added = 0;
            return s;
        }
        i = (i + 1) & t->mask;
    }
}

/* Removes slot s, shifting back the entries after it that would no longer be found (linear
   probing's deletion, no tombstones). */
static void table_delete(Table *t, Slot *s) {
    size_t i = (size_t)(s - t->slots), j = i;
    for (;;) {
        j = (j + 1) & t->mask;
        Slot *next = &t->slots[j];
        if (!next->a) break;
        size_t home = (size_t)next->a & t->mask;
        /* It stays if its home lies cyclically in (i, j]. */
        int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            t->slots[i] = *next;
            i = j;
        }
    }
    memset(&t->slots[i], 0, sizeof(Slot));
    t->count--;
}

static void table_free(Table *t, Memory *mem) {
    if (t->slots) release(mem, t->slots, (t->mask + 1) * sizeof(Slot));
    t->slots = NULL;
    t->mask = t->count = 0;
}

/* -- the search ------------------------------------------------------------------------- */

/* Two threads on one search (`threads` = 2): the main thread runs the fixed-order run of
   the search below, and a helper thread the shuffled runs of its restarts (`helper_main`),
   its reserve test deeper at first. They
   share the table of states proved lost: each adds its proofs in batches under `lock`,
   and reads without one (`dead_find`). A thread that finds the lock taken (the other
   adding its batch, or doubling the table) searches on and tries again at its next
   batch, up to PENDING proofs; then it waits. The table's old slots stay allocated until both
   have stopped. Both count their nodes into `spent` against one budget; `halt` stops
   both once either has a verdict. */
#define BATCH 128 /* proofs added to the shared table at a time, at least */
#define PENDING (8 * BATCH) /* proofs held at most while the lock is taken */
#define TESTED (1 << 14) /* reserve tests remembered (`stuck`): a power of two */
typedef struct {
    Fp key;
    int32_t value, member;
} Proof;

typedef struct {
    pthread_mutex_t lock; /* guards the dead table's writes and what follows */
    Memory dead_mem;      /* the dead table's growth meanwhile */
    Slot *retired[64];    /* its old slots (it doubles, so 64 is plenty) */
    size_t retired_bytes[64], n_retired;
    int64_t max_nodes;
    int64_t spent;        /* both threads' nodes, counted every 256 (atomic) */
    int64_t helper_spent; /* the helper's part of them (atomic) */
    int64_t main_cpu;     /* the main thread's CPU time then, in nanoseconds (atomic) */
    int halt;             /* atomic */
    uint64_t *busy; /* BUSY_SLOTS keys per thread, main then helper (`busy_mark`); or NULL */
} Team;

/* The states on each thread's path, by key (the key's first word in the slot it picks;
   another state may overwrite it, which only changes an order): a thread that comes to a
   child the other thread is searching leaves it for last among its siblings (`advance`),
   as it is likely proved by the time it comes back to it. */
#define BUSY_SLOTS (1 << 16)

static inline uint64_t *busy_slot(const Team *team, int helper, Fp key) {
    return &team->busy[(size_t)helper * BUSY_SLOTS + (key.a & (BUSY_SLOTS - 1))];
}

static inline void busy_mark(const Team *team, int helper, Fp key) {
    if (team && team->busy) __atomic_store_n(busy_slot(team, helper, key), key.a, __ATOMIC_RELAXED);
}

static inline void busy_clear(const Team *team, int helper, Fp key) {
    if (!team || !team->busy) return;
    uint64_t *slot = busy_slot(team, helper, key);
    if (__atomic_load_n(slot, __ATOMIC_RELAXED) == key.a) __atomic_store_n(slot, 0, __ATOMIC_RELAXED);
}

static inline int busy_other(const Team *team, int helper, Fp key) {
    return team && team->busy &&
           __atomic_load_n(busy_slot(team, !helper, key), __ATOMIC_RELAXED) == key.a;
}

typedef struct {
    Packed state;
    uint64_t rng; /* the run's random state before its children were ordered (`regrow`) */
    int32_t count, next;
    int32_t index, low;
    int16_t draws; /* the step that reached it */
    int8_t card, target;
    int32_t redo; /* the first child left for last (`busy_other`), `count` if none; -1 in
                     the sweep back over them */
} Frame;

typedef struct {
    uint64_t x;
} Rng;

static uint64_t rng_next(Rng *g) {
    g->x += 0x9e3779b97f4a7c15ULL;
    return mix_b(g->x);
}

/* Grow-by-doubling arrays, counted in the search's memory. */
#define RESERVE(mem, arr, cap, need, fail)                                                    \
    do {                                                                                      \
        if ((need) > (cap)) {                                                                 \
            size_t n_ = (cap) ? 2 * (cap) : 256;                                              \
            while (n_ < (need)) n_ *= 2;                                                      \
            void *p_ = grow((mem), (arr), (cap) * sizeof(*(arr)), n_ * sizeof(*(arr)));       \
            if (!p_) fail;                                                                    \
            (arr) = p_;                                                                       \
            (cap) = n_;                                                                       \
        }                                                                                     \
    } while (0)

typedef struct {
    Fp key;
    int32_t value;
    uint8_t open; /* still on the component stack */
} Node;

typedef struct {
    const Rules *r;
    Memory *mem;
    Table *dead;
    Team *team;      /* NULL with one thread */
    int helper;      /* the helper's run: counts its nodes apart, reads the clock oftener */
    int64_t counted; /* with a team: the nodes of this `advance` counted in its budget */
    int64_t before;  /* without one: the search's nodes before this `advance` */
    int shuffled;
    Rng rng;
    Table index; /* key -> index of its best (lowest value) open state in this run */
    Node *nodes; /* by index */
    size_t n, cap;
    int32_t *component;
    size_t components, component_cap;
    Frame *stack;
    size_t depth, stack_cap;
    Child *arena; /* the children of frames kept .. depth - 1, one frame after another */
    size_t arena_used, arena_cap;
    size_t kept; /* the frames below hold no children (`shed`) */
    Child won; /* the winning child, once found */
    Proof pending[PENDING]; /* with a team: proofs not yet in the dead table */
    int n_pending;
    Child scratch[MAX_CHILDREN];
    Slot tested[TESTED]; /* see `stuck` */
    /* The relaxed run's (`relaxation`): the dead table of the rules relaxed from, which
       each proof also goes to, lost from value 0 in its first `relay_classes` pointer
       classes; NULL for every other run. */
    Table *relay;
    int relay_classes;
    int64_t left;  /* children left for last (`advance`) */
    int64_t fresh; /* children come to that test, with `leave_every` */
} Run;

/* Whether w's reserve is stuck (`reserve_stuck`), remembering the answer: the test is a
   third of the search's time, and about a third of the states it would test are one
   tested before with another stock pointer, which it does not look at. By the state's key
   in pointer class 0 (96 bits of it, as the tables), in a small table that stays in the
   cache, the last one in each slot. A remembered answer is a proof for this state too,
   and the caller proves it as a fresh one (`prove_stuck`): the earlier state's proofs do
   not always cover it (with limited passes, another pass or pointer class; with draw 1, a
   lower value), and search._Run proves every stuck state it meets. In the last pass of
   limited passes the test looks at the pointer (`talon_in_reach`, `timed_trapped`), and
   the key in class 0 stands for every pass: such states are tested each time, and not
   remembered. Drawing one
   with unlimited passes every state is of class 0 and value 0, so a state met again in a
   run is skipped before its test (in the run's index, or proved lost): the table would
   never answer (skill draw 1 deal 245, 2 million tests, none), and its slot, read far from
   the last one, costs a wait for memory each state: it is left out. */
static int stuck(Run *run, const Work *w, Fp key) {
    if (run->r->passes >= 0 ? w->pass >= run->r->passes : run->r->draw == 1)
        return reserve_stuck(run->r, w);
    Fp plain = in_class(key, pointer_class(run->r, w), 0);
    Slot *seen = &run->tested[plain.a & (TESTED - 1)];
    if (seen->a == plain.a && seen->check == check_of(plain)) return seen->value;
    *seen = (Slot){plain.a, check_of(plain), reserve_stuck(run->r, w)};
    return seen->value;
}

static int priority_then_draws_less(const Child *x, const Child *y) {
    return x->priority < y->priority || (x->priority == y->priority && x->draws < y->draws);
}

static int flush(Run *run, int wait);

static void run_free(Run *run) {
    for (size_t d = 0; d < run->depth; d++)
        busy_clear(run->team, run->helper, run->nodes[run->stack[d].index].key);
    if (run->n_pending) flush(run, 1); /* out of memory: then fewer proofs are kept */
    table_free(&run->index, run->mem);
    release(run->mem, run->nodes, run->cap * sizeof(Node));
    release(run->mem, run->component, run->component_cap * sizeof(int32_t));
    release(run->mem, run->stack, run->stack_cap * sizeof(Frame));
    release(run->mem, run->arena, run->arena_cap * sizeof(Child));
    release(run->mem, run, sizeof(Run));
}

/* Whether a child is proved lost by the dead table: by its key, or (looked up only when
   its turn comes) `dominated` or `passed`. */
static inline int proved_lost(const Table *dead, const Child *c) {
    return is_dead(dead, c->key, c->value) || (c->weakest && dominated(dead, c->key)) ||
           (c->earlier && passed(dead, c->key, c->value, c->earlier));
}

static int is_dead(const Table *dead, Fp key, int32_t value) {
    const Slot *s = dead_find(dead, key);
    return s && __atomic_load_n(&s->value, __ATOMIC_RELAXED) <= value;
}

/* Records k as lost from `value` on (the lowest value proved stays); 0 when out of
   memory. With a team (under its lock), the table's old slots are kept for the other
   thread. */
static int dead_put(Table *t, Memory *mem, Team *team, Fp k, int32_t value) {
    Slot *old;
    size_t old_bytes = t->slots ? (t->mask + 1) * sizeof(Slot) : 0;
    if (!table_room(t, mem, &old)) return 0;
    if (old && team && team->n_retired < 64) {
        team->retired[team->n_retired] = old;
        team->retired_bytes[team->n_retired++] = old_bytes;
    } else if (old) {
        release(mem, old, old_bytes);
    }
    int added;
    Slot *s = table_put(t, mem, k, value, &added); /* the room is made: it does not grow */
    if (!s) return 0;
    if (!added && s->value > value) __atomic_store_n(&s->value, value, __ATOMIC_RELAXED);
    return 1;
}

/* A proof of the relaxed run (`relaxation`) for the rules relaxed from: the same state
   lost whatever its stock pointer and pass, from value 0 in each pointer class there
   (`relay_classes`, from class 0: its key in the relaxed run, where every pointer is
   fresh); 0 when out of memory. */
static int relay_proof(const Run *run, Memory *mem, Team *team, Fp key) {
    for (int position = 0; position < run->relay_classes; position++)
        if (!dead_put(run->relay, mem, team, in_class(key, 0, (uint64_t)position), 0)) return 0;
    return 1;
}

/* A closed state leaves the run's index, which keeps only open states and so stays small
   enough for the caches: it is found in the dead table from then on. */
static void forget(Run *run, Fp key, int32_t member) {
    Slot *own = table_find(&run->index, key);
    if (own && own->value == member) table_delete(&run->index, own);
}

/* With a team: adds the run's pending proofs to the dead table, or if not `wait` and the
   lock is taken, none yet; 0 when out of memory. */
static int flush(Run *run, int wait) {
    Team *team = run->team;
    int ok = 1;
    if (wait)
        pthread_mutex_lock(&team->lock);
    else if (pthread_mutex_trylock(&team->lock))
        return 1;
    for (int q = 0; q < run->n_pending && ok; q++)
        ok = dead_put(run->dead, &team->dead_mem, team, run->pending[q].key,
                      run->pending[q].value) &&
             (!run->relay || relay_proof(run, &team->dead_mem, team, run->pending[q].key));
    pthread_mutex_unlock(&team->lock);
    for (int q = 0; q < run->n_pending; q++)
        forget(run, run->pending[q].key, run->pending[q].member);
    run->n_pending = 0;
    return ok;
}

/* board.Problem.talon_returns (the core runs with every technique) */
static int talon_returns(const Rules *r) {
    return r->mode == MODE_TOP_OR_ALL && r->draw == 1 && r->passes < 0;
}

/* The keys of the states that reach w by putting talon cards back on a column
   (board.Problem.back_in_talon: a column's last j cards taken back into the talon while
   each came from it and a card stays under them), in `back` (52 at most: one a column card);
   their count. Each key's slot in the dead table is fetched at once, as each is far from
   the others in a table far bigger than the caches: asked one after another, each waited
   for memory alone (`returns_lost`). */
static int back_keys(const Rules *r, const Work *w, const Table *dead, Fp *back) {
    if (!talon_returns(r)) return 0;
    size_t mask = __atomic_load_n(&dead->mask, __ATOMIC_ACQUIRE);
    const Slot *slots = __atomic_load_n(&dead->slots, __ATOMIC_ACQUIRE);
    int least = w->reserve ? 2 : 1, hashed = 0, count = 0;
    uint64_t ca[4], cb[4], a = 0, b = 0;
    Work state; /* what `finish_key` reads of the state with the cards back: draw 1, so the
                   pointer's class is 0 and the value 0 */
    state.prot = 0;
    state.reserve = w->reserve;
    for (int i = 0; i < 4; i++) {
        int n = w->len[i];
        state.cards = w->cards;
        while (n >= least && r->order_at[w->col[i][n - 1]] >= 0) {
            state.cards |= 1ULL << w->col[i][--n];
            if (!hashed) { /* the columns' hashes, once: a column's cards back change it alone */
                for (int j = 0; j < 4; j++) {
                    hash_column(w->col[j], w->len[j], &ca[j], &cb[j]);
                    a += ca[j];
                    b += cb[j];
                }
                hashed = 1;
            }
            uint64_t na, nb;
            hash_column(w->col[i], n, &na, &nb);
            back[count] = finish_key(a - ca[i] + na, b - cb[i] + nb, &state, 0);
            if (slots) __builtin_prefetch(&slots[back[count].a & mask]);
            count++;
        }
    }
    return count;
}

/* search._Run._returns_lost: whether a state that reaches w by putting talon cards back on
   a column (`back_keys`: their keys, `count` of them) is proved lost. */
static int returns_lost(const Table *dead, const Fp *back, int count) {
    for (int k = 0; k < count; k++)
        if (is_dead(dead, back[k], 0)) return 1;
    return 0;
}

/* Records the closed state `member` as lost; 0 when out of memory. */
static int prove(Run *run, Fp key, int32_t value, int32_t member) {
    if (run->team) {
        run->pending[run->n_pending++] = (Proof){key, value, member};
        return run->n_pending % BATCH || flush(run, run->n_pending == PENDING);
    }
    if (!dead_put(run->dead, run->mem, NULL, key, value)) return 0;
    if (run->relay && !relay_proof(run, run->mem, NULL, key)) return 0;
    forget(run, key, member);
    return 1;
}

/* Whether the team's search is to stop: a thread has a verdict, or the budget is spent. */
/* This thread's CPU time, in nanoseconds. */
static int64_t thread_cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int team_over(Team *team) {
    return __atomic_load_n(&team->halt, __ATOMIC_RELAXED) ||
           __atomic_load_n(&team->spent, __ATOMIC_RELAXED) >= team->max_nodes;
}

/* Counts `fresh` more nodes of a thread (the helper's apart) against the team's budget; 0
   once the search is to stop. */
static int team_counts(Team *team, int64_t fresh, int helper) {
    __atomic_add_fetch(&team->spent, fresh, __ATOMIC_RELAXED);
    if (helper) __atomic_add_fetch(&team->helper_spent, fresh, __ATOMIC_RELAXED);
    else __atomic_store_n(&team->main_cpu, thread_cpu(), __ATOMIC_RELAXED);
    return !team_over(team);
}

/* With a team, every 256 nodes (16 in the helper) and at the end of `advance`: counts the
   run's `nodes` so far against the shared budget; 0 once the search is to stop. */
static int team_goes_on(Run *run, int64_t nodes) {
    int64_t fresh = nodes - run->counted;
    run->counted = nodes;
    return team_counts(run->team, fresh, run->helper);
}

/* search._Run._prove_stuck: a state whose reserve is stuck (`reserve_stuck`) is lost
   whatever its stock pointer, as the test does not look at it: so with draw 3 and
   unlimited passes, the same state of pointer class 1 and 2 is lost from value 0 on
   (and of class 0 then too: `dominated`). It is proved so without being entered (it has
   no children, and closes at once). 0 when out of memory. */
static int prove_stuck(Run *run, const Work *w, Fp key, int32_t value) {
    const Rules *r = run->r;
    if (pointer_dominance(r, w)) {
        uint64_t own = pointer_class(r, w);
        for (uint64_t position = 1; position <= 2; position++)
            if (!prove(run, in_class(key, own, position), 0, -1)) return 0;
        if (own) return 1; /* its own key was one of them */
    }
    return prove(run, key, value, -1);
}

/* The ordered children of w (entered at `depth`) in run->scratch, their order in `order`;
   their count. `free`: w's reserve is known not stuck. The search order: by priority
   class, then fewest draws, stably (so in generation order after that), or shuffled
   within those; shuffled whatever the class in a shuffled run's first SHUFFLED_DEPTH
   plies. A shuffled run draws from its random state. */
static int ordered_children(Run *run, const Work *w, int free, size_t depth, uint16_t *order) {
    int count = free ? successors_of_free(run->r, w, run->scratch, run->dead, NULL, 0, 0)
                     : successors(run->r, w, run->scratch, run->dead);
    for (int i = 0; i < count; i++) order[i] = (uint16_t)i;
    if (run->shuffled)
        for (int i = count - 1; i > 0; i--) {
            int j = (int)(rng_next(&run->rng) % (uint64_t)(i + 1));
            uint16_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    if (!run->shuffled || depth >= SHUFFLED_DEPTH) {
        /* A stable sort: by priority class into buckets, then by draws (an insertion sort,
           as only the talon's steps differ in draws, and those come in order of draws). */
        uint16_t by_class[MAX_CHILDREN];
        int starts[NEXT_PASS + 2] = {0};
        for (int i = 0; i < count; i++) starts[run->scratch[order[i]].priority + 1]++;
        for (int p = 0; p <= NEXT_PASS; p++) starts[p + 1] += starts[p];
        for (int i = 0; i < count; i++)
            by_class[starts[run->scratch[order[i]].priority]++] = order[i];
        memcpy(order, by_class, (size_t)count * sizeof(uint16_t));
        for (int i = 1; i < count; i++) {
            uint16_t x = order[i];
            int j = i - 1;
            while (j >= 0 &&
                   priority_then_draws_less(&run->scratch[x], &run->scratch[order[j]])) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
    }
    return count;
}

/* Puts the `count` children of run->scratch in `order` at the arena's end; 0 when out of
   memory. */
static int place_children(Run *run, const uint16_t *order, int count) {
    RESERVE(run->mem, run->arena, run->arena_cap, run->arena_used + (size_t)count, return 0);
    for (int i = 0; i < count; i++) run->arena[run->arena_used + i] = run->scratch[order[i]];
    run->arena_used += (size_t)count;
    return 1;
}

/* Fetches the slots the search will read for child c when its turn comes (`advance`):
   its own in the dead table and the run's index, and those of `dominated` and `passed`
   (in the last pass of three, four to six look-ups a child, each far from the others in
   a table far bigger than the caches): asked together, they wait for memory together. */
static void fetch_lookups(const Run *run, const Child *c) {
    size_t mask = __atomic_load_n(&run->dead->mask, __ATOMIC_ACQUIRE);
    const Slot *slots = __atomic_load_n(&run->dead->slots, __ATOMIC_ACQUIRE);
    if (run->index.slots) __builtin_prefetch(&run->index.slots[c->key.a & run->index.mask]);
    if (!slots) return;
    __builtin_prefetch(&slots[c->key.a & mask]);
    if (c->weakest) {
        __builtin_prefetch(&slots[in_class(c->key, 0, 1).a & mask]);
        __builtin_prefetch(&slots[in_class(c->key, 0, 2).a & mask]);
    }
    if (!c->earlier) return;
    int32_t pass = c->value / 64, pointer = c->value % 64;
    if (c->earlier == PASSED_CLASS) {
        uint64_t own = 3 * (uint64_t)pass + (uint64_t)(pointer % 3);
        for (int32_t a = 1; a < pass; a++)
            __builtin_prefetch(
                &slots[in_class(c->key, own, 3 * (uint64_t)a + (uint64_t)(pointer % 3)).a & mask]);
        return;
    }
    int32_t last = c->earlier == PASSED_END ? pass + 1 : pass;
    for (int32_t a = 1; a < last; a++)
        for (uint64_t k = 1; k <= 2; k++)
            __builtin_prefetch(&slots[in_class(c->key, 0, 3 * (uint64_t)a + k).a & mask]);
}

/* Makes room for `more` children on the path: past about `path_children` (Rules), the
   frames nearest the root give up theirs, all but the top frame's (the state entered
   is its child), until the arena holds half as many; `regrow` makes them again when
   the search comes back to such a frame. A path can run over a million moves deep
   (app draw 1 with three passes, shuffling runs between columns) with dozens of
   children a frame, 32 bytes each: the children held 2 GiB of deal 22's 2.4 at 1.4
   million nodes. The frames keep their states (a frame's children are made from it). */
static void shed(Run *run, size_t more) {
    size_t limit = run->r->path_children;
    if (run->arena_used + more <= limit) return;
    size_t gone = 0;
    while (run->kept + 1 < run->depth && run->arena_used - gone > limit / 2)
        gone += (size_t)run->stack[run->kept++].count;
    if (!gone) return;
    memmove(run->arena, run->arena + gone, (run->arena_used - gone) * sizeof(Child));
    run->arena_used -= gone;
}

/* The top frame's children again, after `shed` (as `enter` made them: the same state,
   depth and random state give the same children in the same order); 0 when out of
   memory. Then no frame below holds any: the arena holds the top frame's alone. */
static int regrow(Run *run) {
    size_t depth = run->depth - 1;
    Frame *frame = &run->stack[depth];
    Work w;
    unpack(&frame->state, &w);
    Rng own = run->rng;
    run->rng.x = frame->rng;
    uint16_t order[MAX_CHILDREN];
    /* Not stuck, or it would have no children (a helper's test may have changed depth). */
    int count = ordered_children(run, &w, 1, depth, order);
    run->rng = own;
    run->kept = depth;
    run->arena_used = 0;
    if (count != frame->count) abort(); /* cannot happen: the same state, the same steps */
    return place_children(run, order, count);
}

/* search._Run._enter: index the state and push its ordered children (`ordered_children`);
   0 when out of memory. `free`: the caller found its reserve not stuck. */
static int enter(Run *run, const Work *w, Fp key, int32_t value, int draws, int card,
                 int target, int free) {
    size_t index = run->n;
    RESERVE(run->mem, run->nodes, run->cap, index + 1, return 0);
    RESERVE(run->mem, run->component, run->component_cap, run->components + 1, return 0);
    RESERVE(run->mem, run->stack, run->stack_cap, run->depth + 1, return 0);
    int added;
    Slot *slot = table_put(&run->index, run->mem, key, (int32_t)index, &added);
    if (!slot) return 0;
    slot->value = (int32_t)index;
    run->nodes[index] = (Node){key, value, 1};
    run->n++;
    run->component[run->components++] = (int32_t)index;

    uint64_t rng = run->rng.x;
    uint16_t order[MAX_CHILDREN];
    int count = ordered_children(run, w, free, run->depth, order);
    shed(run, (size_t)count);
    if (!place_children(run, order, count)) return 0;
    Frame *frame = &run->stack[run->depth++];
    pack(w, &frame->state);
    *frame = (Frame){frame->state, rng, count, 0, (int32_t)index, (int32_t)index,
                     (int16_t)draws, (int8_t)card, (int8_t)target, count};
    busy_mark(run->team, run->helper, key);
    return 1;
}

static Run *run_new(const Rules *r, Memory *mem, Table *dead, Team *team, const Work *start,
                    uint64_t seed, int shuffled, int helper) {
    Run *run = calloc(1, sizeof(Run)); /* 370 KB, most of it `tested` and `pending` */
    if (!run) return NULL;
    count_more(mem, sizeof(Run));
    run->r = r;
    run->mem = mem;
    run->dead = dead;
    run->team = team;
    run->helper = helper;
    run->shuffled = shuffled;
    run->rng.x = seed;
    if (!enter(run, start, key_of(r, start), value_of(r, start), 0, 0, 0, 0)) {
        run_free(run);
        return NULL;
    }
    return run;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum { GOING_ON = 0, WON = 1, UNWINNABLE = 2, OUT_OF_MEMORY = -1 };

typedef struct {
    int16_t draws;
    int8_t card, target;
} Step;

/* Marks the dead table `crowded` once the last quarter of the budget has begun, by the
   search's nodes so far (this `advance` has made `nodes`) or by the clock `time`. */
static void crowd(Run *run, int64_t nodes, double time) {
    Table *dead = run->dead;
    if (__atomic_load_n(&dead->crowded, __ATOMIC_RELAXED)) return;
    int64_t spent = run->team ? __atomic_load_n(&run->team->spent, __ATOMIC_RELAXED)
                              : run->before + nodes;
    if (spent >= dead->crowd_nodes || time > dead->crowd_after)
        __atomic_store_n(&dead->crowded, 1, __ATOMIC_RELAXED);
}

/* search._Run.advance: at most `limit` more nodes. On WON, the stack holds the path and
   `won` the last step. */
static int advance(Run *run, int64_t limit, double deadline, int64_t *spent) {
    int64_t nodes = 0;
    *spent = 0;
    run->counted = 0;
    while (run->depth) {
        Frame *frame = &run->stack[run->depth - 1];
        if (frame->next < frame->count) {
            if (run->depth <= run->kept && !regrow(run)) { /* its children were shed */
                *spent = nodes;
                return OUT_OF_MEMORY;
            }
            size_t at = run->arena_used - (size_t)frame->count + (size_t)frame->next++;
            Child *child = &run->arena[at];
            if (frame->next < frame->count) fetch_lookups(run, child + 1);
            Fp key = child->key;
            int32_t value = child->value;
            if (proved_lost(run->dead, child)) continue; /* only now: fewer look-ups */
            const Slot *seen = table_find(&run->index, key);
            if (seen && run->nodes[seen->value].value <= value) {
                if (run->nodes[seen->value].open && seen->value < frame->low)
                    frame->low = seen->value;
                continue;
            }
            if (frame->redo >= 0 && frame->next < frame->count &&
                (busy_other(run->team, run->helper, key) ||
                 (run->r->leave_every && ++run->fresh % run->r->leave_every == 0))) {
                if (frame->next - 1 < frame->redo) frame->redo = frame->next - 1;
                run->left++;
                continue;
            }
            nodes++;
            if (child->won) {
                run->won = *child;
                *spent = nodes;
                return WON;
            }
            Work parent, state;
            unpack(&frame->state, &parent);
            child_of(run->r, &parent, child, &state);
            /* search._Run.advance asks the reserve test first: the same states are proved
               lost either way, and `returns_lost` costs less (on skill draw 1 deal 245 it
               proves 6 % of the states lost and spares their tests) */
            Fp back[52];
            int backs = back_keys(run->r, &state, run->dead, back);
            int made = returns_lost(run->dead, back, backs) || stuck(run, &state, key)
                           ? prove_stuck(run, &state, key, value)
                           : enter(run, &state, key, value, child->draws, child->card,
                                   child->target, 1);
            if (!made) {
                *spent = nodes;
                return OUT_OF_MEMORY;
            }
            /* The clock and the team, now and then (the helper's nodes can be slow). */
            if (nodes >= limit) {
                *spent = nodes;
                return GOING_ON;
            }
            if (nodes & (run->helper ? 15 : 255)) continue;
            double time = now();
            if (time > deadline || (run->team && !team_goes_on(run, nodes))) {
                *spent = nodes;
                return GOING_ON;
            }
            crowd(run, nodes, time);
            continue;
        }
        if (frame->redo >= 0 && frame->redo < frame->count) { /* back to those left */
            frame->next = frame->redo;
            frame->redo = -1;
            continue;
        }
        /* Every child done: close a component (all of it lost), or pass `low` up. */
        busy_clear(run->team, run->helper, run->nodes[frame->index].key);
        run->depth--;
        if (run->depth >= run->kept)
            run->arena_used -= (size_t)frame->count;
        else /* shed: it held none */
            run->kept = run->depth;
        int32_t index = frame->index, low = frame->low;
        if (low == index) {
            for (;;) {
                int32_t member = run->component[--run->components];
                Node *node = &run->nodes[member];
                node->open = 0;
                if (!prove(run, node->key, node->value, member)) {
                    *spent = nodes;
                    return OUT_OF_MEMORY;
                }
                if (member == index) break;
            }
        }
        if (run->depth) {
            Frame *parent = &run->stack[run->depth - 1];
            if (low < parent->low) parent->low = low;
        }
    }
    *spent = nodes;
    return UNWINNABLE;
}

typedef struct {
    int code;
    int64_t nodes;
    Step *steps;
    size_t length;
    int64_t left_for_last; /* children left for last (`advance`), every run's */
} Outcome;

/* Frees a run that searched for `out`, counting its children left for last there. */
static void run_end(Run *run, Outcome *out) {
    out->left_for_last += run->left;
    run_free(run);
}

/* `limit` more nodes of `run` at most, counted in `out` (and in the team's count): its code. */
static int counted_advance(Run *run, int64_t limit, double deadline, Outcome *out) {
    int64_t spent;
    run->before = out->nodes;
    int code = advance(run, limit, deadline, &spent);
    out->nodes += spent;
    if (run->team) team_goes_on(run, spent);
    return code;
}

/* `counted_advance`, and a win's steps into `out`. */
static int run_advance(Run *run, int64_t limit, double deadline, Outcome *out) {
    int code = counted_advance(run, limit, deadline, out);
    if (code == WON) {
        Step *steps = malloc(run->depth * sizeof(Step));
        if (!steps) return OUT_OF_MEMORY;
        size_t k = 0;
        for (size_t d = 1; d < run->depth; d++)
            steps[k++] = (Step){run->stack[d].draws, run->stack[d].card, run->stack[d].target};
        steps[k++] = (Step){run->won.draws, run->won.card, run->won.target};
        out->steps = steps;
        out->length = k;
    }
    return code;
}

/* -- the beam ---------------------------------------------------------------------------- */

/* search.beam: breadth first from `root`, keeping at each depth the `width` children that
   look furthest along (`beam_score`, cards up and reserve cards counting `up` and `reserve`
   each; ties in the order they came), each state once (a state
   whose key was kept before with no higher value is left out, as the runs leave it out),
   and none that the dead table or the tests prove lost. It proves nothing and looks only
   for a win, up to `cap` nodes (each state whose children it makes): WON with the steps in
   `out`, else GOING_ON. The depth-first runs commit to their first choices and can spend
   millions of nodes under one that loses; the beam looks at every depth across all of
   them. One thread's (the helper's: `helper_main`); `team` counts its nodes as the runs
   count theirs. */
typedef struct {
    Child child;
    int32_t parent; /* the index of the state it comes from, in its depth's level */
    int32_t score;
} BeamCandidate;

typedef struct {
    int32_t parent;
    int16_t draws;
    int8_t card, target;
} BeamLink;

/* The weights of a card up and of a reserve card in the beam's score (search.BEAM_WEIGHTS),
   drawing one card: cards up weigh little beside the reserve and the talon (app draw 1 with
   three passes 344 and 465 won; 465's winning line keeps cards in the columns and empties
   the reserve and the talon first), drawing three as before (app draw 3 with three passes
   deal 64 was lost in the 10 s search with cards up 2, reserve cards 3; docs/solver.md). */
static int beam_up(const Rules *r) { return r->draw == 1 ? 1 : 4; }
static int beam_reserve(const Rules *r) { return r->draw == 1 ? 3 : 2; }

/* How far along a state looks (search.beam_score): cards up (`up` each), fewer reserve
   cards (`reserve` each), talon cards (3) and passes begun (12), empty columns (1). */
static int32_t beam_score(const Work *w, int up, int reserve) {
    int empties = 0;
    for (int i = 0; i < 4; i++) empties += w->len[i] == 0;
    return up * (w->found[0] + w->found[1] + w->found[2] + w->found[3]) - reserve * w->reserve -
           3 * talon_size(w) - 12 * w->pass + empties;
}

/* The n candidates' indices into `order`, highest score first and ties in the order they
   came: a counting sort (stable), as their scores span a few hundred values at most, where
   qsort of the candidates themselves took a tenth of a beam 64,000 wide's CPU. `counts`
   holds `*counts_cap` counts, grown as needed; 0 when out of memory. */
static int beam_order(Memory *mem, const BeamCandidate *cand, size_t n, uint32_t *order,
                      size_t **counts, size_t *counts_cap) {
    if (!n) return 1;
    int32_t high = cand[0].score, low = cand[0].score;
    for (size_t k = 1; k < n; k++) {
        if (high < cand[k].score) high = cand[k].score;
        if (low > cand[k].score) low = cand[k].score;
    }
    size_t span = (size_t)(high - low) + 1;
    RESERVE(mem, *counts, *counts_cap, span, return 0);
    size_t *count = *counts;
    memset(count, 0, span * sizeof(size_t));
    for (size_t k = 0; k < n; k++) count[high - cand[k].score]++;
    for (size_t v = 0, at = 0; v < span; v++) {
        size_t here = count[v];
        count[v] = at;
        at += here;
    }
    for (size_t k = 0; k < n; k++) order[count[high - cand[k].score]++] = (uint32_t)k;
    return 1;
}

/* Counts `fresh` more nodes of a helper's beam against the team's budget; 0 once the search
   is to stop. */
static int beam_goes_on(Team *team, int64_t fresh, double deadline) {
    return (!team || team_counts(team, fresh, 1)) && now() < deadline;
}

/* How many candidates ahead the kept ones' slots in `seen` are fetched. */
#define BEAM_AHEAD 8

static int beam(const Rules *r, Memory *mem, const Table *dead, Team *team, const Work *root,
                int64_t width, int up, int reserve, int64_t cap, double deadline, Outcome *out) {
    Table seen = {0};
    Packed *level = NULL, *next = NULL;
    size_t level_cap = 0, next_cap = 0, level_n = 1, cand_cap = 0, link_cap = 0, link_n = 0;
    size_t base_cap = 0, depth = 0, order_cap = 0, counts_cap = 0;
    BeamCandidate *cand = NULL;
    BeamLink *links = NULL;
    size_t *base = NULL; /* base[d]: where depth d's links begin */
    uint32_t *order = NULL; /* the candidates by score (`beam_order`) */
    size_t *counts = NULL;
    Child *scratch = NULL;
    int32_t scores[MAX_CHILDREN]; /* the children's scores, made as they are settled */
    int code = GOING_ON, added;
    int64_t nodes = 0, counted = 0;
    scratch = grow(mem, NULL, 0, MAX_CHILDREN * sizeof(Child));
    if (!scratch) return OUT_OF_MEMORY;
    RESERVE(mem, level, level_cap, 1, goto oom);
    pack(root, &level[0]);
    if (!table_put(&seen, mem, key_of(r, root), value_of(r, root), &added)) goto oom;
    while (level_n && nodes < cap) {
        size_t n_cand = 0;
        for (size_t i = 0; i < level_n; i++) {
            Work w;
            unpack(&level[i], &w);
            int count = reserve_stuck(r, &w)
                            ? 0
                            : successors_of_free(r, &w, scratch, dead, scores, up, reserve);
            nodes++;
            for (int k = 0; k < count; k++) {
                const Child *c = &scratch[k];
                if (c->won) {
                    /* The steps: back from this one through each depth's links. */
                    Step *steps = malloc((depth + 1) * sizeof(Step));
                    if (!steps) goto oom;
                    steps[depth] = (Step){c->draws, c->card, c->target};
                    size_t at = i;
                    for (size_t d = depth; d > 0; d--) {
                        const BeamLink *l = &links[base[d] + at];
                        steps[d - 1] = (Step){l->draws, l->card, l->target};
                        at = (size_t)l->parent;
                    }
                    out->steps = steps;
                    out->length = depth + 1;
                    code = WON;
                    goto done;
                }
                if (proved_lost(dead, c)) continue;
                RESERVE(mem, cand, cand_cap, n_cand + 1, goto oom);
                cand[n_cand++] = (BeamCandidate){*c, (int32_t)i, scores[k]};
            }
            if (nodes - counted >= 16) { /* as often as the helper's runs look */
                int goes_on = beam_goes_on(team, nodes - counted, deadline);
                counted = nodes;
                if (!goes_on) goto done;
            }
        }
        /* Those kept before with no higher value left out, all the depth's at once (`seen`
           changes only below), each one's slot fetched a few ahead: the table is large and
           its look-ups miss the cache (a fifth of a beam 64,000 wide's CPU). */
        size_t fresh = 0;
        for (size_t k = 0; k < n_cand; k++) {
            if (k + BEAM_AHEAD < n_cand)
                __builtin_prefetch(&seen.slots[(size_t)cand[k + BEAM_AHEAD].child.key.a & seen.mask]);
            const Slot *s = table_find(&seen, cand[k].child.key);
            if (s && s->value <= cand[k].child.value) continue;
            if (fresh != k) cand[fresh] = cand[k];
            fresh++;
        }
        n_cand = fresh;
        RESERVE(mem, order, order_cap, n_cand, goto oom);
        if (!beam_order(mem, cand, n_cand, order, &counts, &counts_cap)) goto oom;
        /* The best `width` of them not kept before, made from their parents. */
        depth++;
        RESERVE(mem, base, base_cap, depth + 1, goto oom);
        base[depth] = link_n;
        size_t kept = 0;
        for (size_t k = 0; k < n_cand && kept < (size_t)width; k++) {
            /* a candidate twice as far ahead fetched, and the slot in `seen` of one a few
               ahead, while this one is made */
            if (k + 2 * BEAM_AHEAD < n_cand) __builtin_prefetch(&cand[order[k + 2 * BEAM_AHEAD]]);
            if (k + BEAM_AHEAD < n_cand)
                __builtin_prefetch(&seen.slots[(size_t)cand[order[k + BEAM_AHEAD]].child.key.a &
                                               seen.mask]);
            const BeamCandidate *b = &cand[order[k]];
            const Child *c = &b->child;
            Slot *s = table_put(&seen, mem, c->key, c->value, &added);
            if (!s) goto oom;
            if (!added) {
                if (s->value <= c->value) continue;
                s->value = c->value;
            }
            Work parent, child;
            unpack(&level[b->parent], &parent);
            child_of(r, &parent, c, &child);
            RESERVE(mem, next, next_cap, kept + 1, goto oom);
            pack(&child, &next[kept]);
            RESERVE(mem, links, link_cap, link_n + 1, goto oom);
            links[link_n++] = (BeamLink){b->parent, c->draws, c->card, c->target};
            kept++;
        }
        Packed *t = level;
        size_t t_cap = level_cap;
        level = next;
        level_cap = next_cap;
        next = t;
        next_cap = t_cap;
        level_n = kept;
    }
    goto done;
oom:
    code = OUT_OF_MEMORY;
done:
    if (nodes > counted) beam_goes_on(team, nodes - counted, deadline);
    out->nodes += nodes;
    table_free(&seen, mem);
    release(mem, scratch, MAX_CHILDREN * sizeof(Child));
    if (level) release(mem, level, level_cap * sizeof(Packed));
    if (next) release(mem, next, next_cap * sizeof(Packed));
    if (cand) release(mem, cand, cand_cap * sizeof(BeamCandidate));
    if (links) release(mem, links, link_cap * sizeof(BeamLink));
    if (base) release(mem, base, base_cap * sizeof(size_t));
    if (order) release(mem, order, order_cap * sizeof(uint32_t));
    if (counts) release(mem, counts, counts_cap * sizeof(size_t));
    return code;
}

/* The helper thread (see `Team`): the restarts' shuffled runs, seeds 1, 2, 3, ..., each
   as long as one thread makes it (`restart_nodes`), while the main thread gives all its
   nodes to the fixed-order run; so two threads go at least as far along both as one
   thread in the same time. (It used to search one run in the reverse order while the
   main thread made the restarts too: S3 deals 381 and 489, won by one thread in 5.9 M and
   3.7 M nodes, took two threads 6.3 M and 6.8 M, now 3.9 M and 5.1 M.) Its reserve test
   (board.Problem.reserve_stuck) first looks HELPER_LOOKAHEAD cards deep, which decides
   some deals far sooner than the main thread's test (LOOKAHEAD deep) can. On others it
   costs far more than it saves: there the helper goes on looking as deep as the main
   thread, as a second pair of hands (every test is a proof on its own, whatever the
   depth). It does so once it has made under HELPER_SLOW times as many nodes a second of
   its CPU time as the main thread over HELPER_WINDOW seconds of each one's CPU time, or after
   HELPER_DEEP_SHARE of the budget's seconds. CPU time, not the clock's: on a busy machine
   either thread may wait a window out for a core, and the helper would fall back for
   that alone (seen at a load of 12: classic deal 282 then took more than twice the nodes). */
#define HELPER_LOOKAHEAD 8
/* Whether the helper's test looks HELPER_LOOKAHEAD deep first: not with top-or-all moves,
   whose test asks every way each card above may leave (their number grows with the depth).
   Skill draw 1 deal 245 on two threads at 10 s: proved in 4 of 4 runs (7.09-7.11 M nodes,
   9.67-9.89 s) where 1 of 4 (6.66-6.76 M nodes made); the skill rows at 10 s the same
   decided, p95 and nodes a second mostly better (docs/solver.md). */
static int deep_first(const Rules *r) { return r->mode != MODE_TOP_OR_ALL; }
/* Between its shuffled runs the helper searches beams (`beam`), a third as much CPU time in
   all as the runs (a beam's node, whose children are all made, costs several of theirs):
   the first BEAM_FIRST_WIDTH states wide, each next width four times the last, up to
   BEAM_WIDEST, each for BEAM_DEPTH nodes per state of its width at most. */
#define BEAM_RUNS 3 /* the runs' CPU time to the beams' */
#define BEAM_FIRST_WIDTH 1000
#define BEAM_WIDEST (1 << 20)
#define BEAM_DEPTH 128
/* The width of the beam after one `width` wide that ended with `code`: four times as wide, or
   0 (no more beams) past BEAM_WIDEST or when it ran out of memory. */
static int64_t beam_next_width(int64_t width, int code) {
    return code == OUT_OF_MEMORY || width > BEAM_WIDEST / 4 ? 0 : 4 * width;
}
/* The beams start this much CPU time (ns) in debt, so the runs go first for BEAM_RUNS times
   it (90 ms): most deals are decided by then, and a first beam on the helper's first
   milliseconds had taken the shuffled runs' place where they win quickly (app draw 3 with
   three passes, deals 0-99 at 2 s: the median 0.16-0.26 s -> 0.09-0.11 s at a load of 5). */
#define BEAM_OWED 30000000

/* Whether the helper searches beams: where cards come back from the foundations (app
   rules). There they win deals that depth-first search leaves unknown; under classic and
   skill rules they won none of the unknowns of the 10 s table but skill draw 1 with three
   passes 489, and the CPU they took from the helper's runs left near-line lost deals
   unknown (skill draw 1 with three passes 245 303 305 316 423 499, skill draw 1 184). */
static int beams_pay(const Rules *r) { return r->returns; }

/* Under app draw 3 with a pass limit (`beams_second`) the helper also searches beams with the
   second weights, cards up 1 and reserve cards 3 (drawing one's), each beam from
   BEAM_SECOND_FROM wide right after the first weights' beam of its width, and the beams take
   a third of its CPU time (BEAM_RUNS_SECOND), not a quarter. The first weights' beams 1,000
   and 4,000 wide come as soon as before (deals 64 85 370 are won by the one 4,000 wide: a
   second weights' beam before it had lost 64 and 85 in the 10 s search); the second weights
   win deals 342 and 392 with a beam 4,000 wide, 35 and 82 16,000 wide, run alone (docs/solver.md). */
static int beams_second(const Rules *r) { return r->returns && r->draw == 3 && r->passes >= 0; }
#define BEAM_SECOND_FROM 4000
#define BEAM_SECOND_UP 1
#define BEAM_SECOND_RESERVE 3
#define BEAM_RUNS_SECOND 2
#define HELPER_SLOW 0.08
#define HELPER_WINDOW 0.25
#define HELPER_DEEP_SHARE 0.6
typedef struct {
    Rules rules; /* the main thread's, with the helper's reserve test */
    Memory mem;
    Table *dead;
    Team *team;
    Work root;
    double deep_until, deadline;
    Outcome out;
} Helper;

/* The random state of the n-th shuffled run (from 1). */
static uint64_t run_seed(uint64_t n) { return n * 0x2545f4914f6cdd1dULL; }

static int64_t restart_nodes(const Rules *r, uint64_t n);

static void *helper_main(void *arg) {
    Helper *h = arg;
    Team *team = h->team;
    int fallback = h->rules.lookahead; /* the main thread's depth */
    const Rules beam_rules = h->rules; /* the beams test as deep as the main thread */
    closed_stop_at(h->deadline, &team->halt);
    /* A beam asks the closed game of states far apart, which a small table forgets before
       they come again: its thread's table grows (not the one-thread search's: `one_beam`). */
    if (beams_pay(&h->rules) && closed_plays(&h->rules)) closed_grow(CLOSED_MEMO_BEAM);
    /* The runs' CPU time to the beams'; CPU time in each, ns (the beams' first debt is the
       same 90 ms of runs); the next beam's width (0: none, `beams_pay`), and whether it
       weighs with the second weights (`beams_second`) */
    const int second_too = beams_second(&h->rules);
    const int64_t share = second_too ? BEAM_RUNS_SECOND : BEAM_RUNS;
    int64_t in_beams = BEAM_OWED * BEAM_RUNS / share, in_runs = 0;
    int64_t width = beams_pay(&h->rules) ? BEAM_FIRST_WIDTH : 0;
    int second = 0;
    /* Top-or-all moves (skill): as deep as the main thread from the start (`deep_first`). */
    h->rules.lookahead = deep_first(&h->rules) ? HELPER_LOOKAHEAD : fallback;
    h->rules.certain = 1;
    Run *run = NULL;
    uint64_t seed = 0;
    int64_t left = 0; /* the nodes the current run may still make */
    int code = GOING_ON;
    /* The current window began: the helper's and the main thread's CPU time, the
       helper's and both threads' nodes. */
    int64_t my_cpu = thread_cpu(), mine = 0, all = 0;
    int64_t main_cpu = __atomic_load_n(&team->main_cpu, __ATOMIC_RELAXED);
    const int64_t window = (int64_t)(HELPER_WINDOW * 1e9);
    while (code == GOING_ON && !team_over(team) && now() < h->deadline) {
        if (left <= 0 && width && share * in_beams <= in_runs) { /* the next beam */
            int64_t began = thread_cpu();
            code = beam(&beam_rules, &h->mem, h->dead, team, &h->root, width,
                        second ? BEAM_SECOND_UP : beam_up(&beam_rules),
                        second ? BEAM_SECOND_RESERVE : beam_reserve(&beam_rules),
                        BEAM_DEPTH * width, h->deadline, &h->out);
            in_beams += thread_cpu() - began;
            second = !second && second_too && width >= BEAM_SECOND_FROM;
            if (second && code != OUT_OF_MEMORY) continue; /* the same width again */
            second = 0;
            width = beam_next_width(width, code);
            if (code == OUT_OF_MEMORY) code = GOING_ON; /* the shuffled runs go on alone */
            continue;
        }
        if (left <= 0) { /* the next shuffled run */
            if (run) run_end(run, &h->out);
            ++seed;
            run = run_new(&h->rules, &h->mem, h->dead, team, &h->root, run_seed(seed), 1, 1);
            if (!run) break;
            left = restart_nodes(&h->rules, seed);
        }
        int64_t before = h->out.nodes, began = thread_cpu();
        code = run_advance(run, left < 1 << 10 ? left : 1 << 10, h->deadline, &h->out);
        left -= h->out.nodes - before;
        in_runs += thread_cpu() - began;
        if (h->rules.lookahead == fallback) continue;
        if (now() > h->deep_until) {
            h->rules.lookahead = fallback;
            continue;
        }
        int64_t my_cpu_now = thread_cpu();
        int64_t main_cpu_now = __atomic_load_n(&team->main_cpu, __ATOMIC_RELAXED);
        if (my_cpu_now - my_cpu < window || main_cpu_now - main_cpu < window) continue;
        int64_t mine_now = __atomic_load_n(&team->helper_spent, __ATOMIC_RELAXED);
        int64_t all_now = __atomic_load_n(&team->spent, __ATOMIC_RELAXED);
        double my_rate = (double)(mine_now - mine) / (double)(my_cpu_now - my_cpu);
        double main_rate = (double)((all_now - mine_now) - (all - mine)) /
                           (double)(main_cpu_now - main_cpu);
        if (my_rate < HELPER_SLOW * main_rate) h->rules.lookahead = fallback;
        my_cpu = my_cpu_now;
        main_cpu = main_cpu_now;
        mine = mine_now;
        all = all_now;
    }
    if (code == WON || code == UNWINNABLE) {
        h->out.code = code;
        __atomic_store_n(&team->halt, 1, __ATOMIC_RELAXED);
    }
    if (run) run_end(run, &h->out);
    closed_release(); /* the thread ends: its closed game's arrays with it */
    return NULL;
}

/* Starts the helper on `team` (set up here); NULL if it cannot (one thread then). */
static Helper *helper_start(const Rules *r, Table *dead, Team *team, const Work *root,
                            int64_t max_nodes, double seconds, size_t limit,
                            pthread_t *thread) {
    Helper *h = calloc(1, sizeof(Helper));
    if (!h) return NULL;
    h->mem.limit = limit;
    memset(team, 0, sizeof(Team));
    team->busy = calloc(2 * BUSY_SLOTS, sizeof(uint64_t)); /* NULL: no order by it */
    team->max_nodes = max_nodes;
    team->dead_mem.limit = limit; /* the shared table's growth meanwhile, as much again */
    team->main_cpu = thread_cpu(); /* called on the main thread's */
    h->rules = *r;
    h->dead = dead;
    h->team = team;
    h->root = *root;
    double start = now();
    h->deep_until = start + HELPER_DEEP_SHARE * seconds;
    h->deadline = start + seconds;
    h->out.code = GOING_ON;
    if (pthread_mutex_init(&team->lock, NULL)) {
        free(team->busy);
        free(h);
        return NULL;
    }
    if (pthread_create(thread, NULL, helper_main, h)) {
        pthread_mutex_destroy(&team->lock);
        free(team->busy);
        free(h);
        return NULL;
    }
    return h;
}

/* Stops and joins the helper, frees what the team held, and counts the dead table's growth
   in `mem`; the helper's verdict when the main thread has none (or ran out of memory).
   Returns the peak memory beside `mem`'s: the helper's and the table's growth (an upper
   bound). */
static size_t helper_stop(Helper *h, pthread_t thread, Memory *mem, Outcome *out, int *code) {
    Team *team = h->team;
    __atomic_store_n(&team->halt, 1, __ATOMIC_RELAXED);
    pthread_join(thread, NULL);
    mem->bytes += team->dead_mem.bytes;
    while (team->n_retired) {
        team->n_retired--;
        release(mem, team->retired[team->n_retired], team->retired_bytes[team->n_retired]);
    }
    pthread_mutex_destroy(&team->lock);
    free(team->busy);
    team->busy = NULL;
    out->nodes += h->out.nodes;
    out->left_for_last += h->out.left_for_last;
    if ((*code == GOING_ON || *code == OUT_OF_MEMORY) &&
        (h->out.code == WON || h->out.code == UNWINNABLE)) {
        *code = h->out.code;
        free(out->steps);
        out->steps = h->out.steps;
        out->length = h->out.length;
    } else {
        free(h->out.steps);
    }
    size_t peak = h->mem.peak + team->dead_mem.peak;
    free(h);
    return peak;
}

/* search.luby: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... for i = 1, 2, 3, ... */
static int64_t luby(uint64_t i) {
    for (;;) {
        uint64_t k = 1;
        while ((1ULL << k) - 1 < i) k++;
        if ((1ULL << k) - 1 == i) return (int64_t)1 << (k - 1);
        i -= (1ULL << (k - 1)) - 1;
    }
}

/* search.short_restarts: whether the shuffled runs are many short ones. */
static int short_restarts(const Rules *r) {
    return r->draw == 1 && (r->passes >= 0 || r->mode == MODE_TOP_OR_ALL);
}

/* The helper's n-th shuffled run's nodes, as one thread gives it: SHORT_RUN_NODES times
   luby(n) under short restarts, else the n-th round's share, FIRST_RUN_NODES / 2 doubled
   n - 1 times (`search`). */
static int64_t restart_nodes(const Rules *r, uint64_t n) {
    if (short_restarts(r)) return SHORT_RUN_NODES * luby(n);
    return (int64_t)(FIRST_RUN_NODES / 2) << (n < 40 ? n - 1 : 39);
}

/* search.Solver._shuffled_runs: the shuffled runs' `share` of a round's nodes, each run with
   the next seed: one run of it all or, under `short_restarts`, many of SHORT_RUN_NODES
   times luby(seed) nodes at most. One thread's (with two, the helper makes them). */
static int shuffled_runs(const Rules *r, Memory *mem, Table *dead, Work *root, int64_t share,
                         int64_t max_nodes, double deadline, uint64_t *seed, Outcome *out) {
    int code = GOING_ON, short_ones = short_restarts(r);
    while (share > 0 && code == GOING_ON && out->nodes < max_nodes && now() < deadline) {
        ++*seed;
        Run *ticket = run_new(r, mem, dead, NULL, root, run_seed(*seed), 1, 0);
        if (!ticket) return OUT_OF_MEMORY;
        int64_t cap = short_ones ? restart_nodes(r, *seed) : share, before = out->nodes;
        if (cap > share) cap = share;
        if (cap > max_nodes - out->nodes) cap = max_nodes - out->nodes;
        code = run_advance(ticket, cap, deadline, out);
        run_end(ticket, out);
        share -= out->nodes - before;
    }
    return code;
}

/* The one-thread search's beams (search.Solver._beam), under `beams_pay` only: between a
   round's fixed-order run and its shuffled runs (whose order, drawn from the core's own
   random numbers, is not Python's: before them, a test's beam meets the same proofs both
   ways), once the runs (the fixed-order run and the shuffled ones) have
   made BEAM_FAIR_GO nodes and BEAM_RUNS times the beams' so far, a beam (`beam`) of the next
   width (BEAM_FIRST_WIDTH, then four times as wide each time), for BEAM_DEPTH nodes per state
   of its width at most, each of its nodes counting BEAM_NODE_COST nodes of the budget (it
   makes every child of its state, which the runs' nodes do not). Nodes, not CPU time as
   the helper's share: one thread searches the same nodes as Python's. *width: the next
   beam's (0: none); *in_beams: the budget's nodes the beams have counted. */
#define BEAM_FAIR_GO 100000
#define BEAM_NODE_COST 2
static int one_beam(const Rules *r, Memory *mem, const Table *dead, const Work *root,
                    int64_t max_nodes, double deadline, int64_t *width, int64_t *in_beams,
                    Outcome *out) {
    int64_t runs = out->nodes - *in_beams;
    if (!*width || runs < r->beam_after || BEAM_RUNS * *in_beams > runs || now() >= deadline)
        return GOING_ON;
    /* A beam finishes the depth it is at (up to `width` nodes past its cap). */
    int64_t cap = BEAM_DEPTH * *width;
    int64_t left = (max_nodes - out->nodes) / BEAM_NODE_COST - *width + 1;
    if (cap > left) cap = left;
    if (cap <= 0) return GOING_ON;
    Outcome beamed = {GOING_ON, 0, NULL, 0, 0};
    int code = beam(r, mem, dead, NULL, root, *width, beam_up(r), beam_reserve(r), cap, deadline,
                    &beamed);
    out->nodes += BEAM_NODE_COST * beamed.nodes;
    *in_beams += BEAM_NODE_COST * beamed.nodes;
    *width = beam_next_width(*width, code);
    if (code == WON) {
        out->steps = beamed.steps;
        out->length = beamed.length;
    }
    return code == OUT_OF_MEMORY ? GOING_ON : code; /* the runs go on alone */
}

/* Core.opening: the one shuffled run of seed `r->opening` (as `shuffled_runs` seeds it) for
   all the nodes, in one thread: how often a deal's openings win within a few nodes
   (bench/openings.py), with the search's tables, cuts and order. */
static int one_opening(const Rules *r, Memory *mem, Table *dead, Work *root, int64_t max_nodes,
                       double deadline, Outcome *out) {
    Run *run = run_new(r, mem, dead, NULL, root, run_seed(r->opening), 1, 0);
    if (!run) return OUT_OF_MEMORY;
    int code = run_advance(run, max_nodes - out->nodes, deadline, out);
    run_end(run, out);
    return code;
}

static void salt_rules(Rules *r);

/* With two threads the relaxed run (`relaxation`) goes on only while it has had at most
   1 / (1 + RELAXED_CPU) of the main thread's CPU time (half): its nodes, drawing one, can
   cost far more than the fixed-order run's (classic draw 3 deals 204, 245, 474: 6-9 µs
   where 2-3), so that as many nodes took most of the main thread's time from the proofs
   of those deals (at 10 s, load 3.7: all three unknown; main's code: proved). A third
   kept them nearer main's times but left classic draw 1 with three passes 218 and 474
   unknown (docs/solver.md). */
#define RELAXED_CPU 1

/* board.Problem.relaxed: whether a search under rules r also runs the relaxed rules' (draw
   1, unlimited passes: `out`, with r's talon order) beside its own, as how many pointer
   classes a relaxed proof stands for under r (0: none; `relay_proof`). With whole-column
   moves, empty columns that take only the waste's card, no cards back from the foundations
   and no autocomplete, under draw 3 with unlimited passes (three classes) or draw 1 with a
   pass limit (one). */
static int relaxation(const Rules *r, Rules *out) {
    if (r->mode != MODE_ALL || r->empty_any || r->returns || r->autocomplete) return 0;
    if (!(r->draw == 3 && r->passes < 0) && !(r->draw == 1 && r->passes >= 0)) return 0;
    *out = *r;
    out->draw = 1;
    out->passes = -1;
    salt_rules(out);
    return r->draw == 3 ? 3 : 1;
}

/* The relaxed run's next `limit` nodes at most (search.Solver._relaxed_advance): its
   code, counted as `run_advance` counts, but a win's steps left out (a win of the relaxed
   rules says nothing of the search's own), and with two threads its proofs flushed. */
static int relaxed_advance(Run *run, int64_t limit, double deadline, Outcome *out) {
    int code = counted_advance(run, limit, deadline, out);
    if (run->team && run->n_pending && !flush(run, 1)) return OUT_OF_MEMORY; /* for the helper */
    return code;
}

/* search.Solver._solve, up to the winning steps (Python builds and checks the line); with
   threads = 2, a helper thread searches too (see `Team`); `relaxed`: the relaxed rules'
   dead table (`relaxation`). *more_peak: the helper's peak memory, beside `mem`'s. */
static void search_until(const Rules *r, Memory *mem, Table *dead, Table *relaxed,
                         Work *root, int64_t max_nodes, double seconds, double deadline,
                         int threads, Outcome *out, size_t *more_peak) {
    dead->crowd_after = deadline - seconds / 4;
    dead->crowd_nodes = max_nodes - max_nodes / 4;
    dead->crowded = 0;
    out->code = GOING_ON;
    out->nodes = 1;
    out->steps = NULL;
    out->length = 0;
    out->left_for_last = 0;
    *more_peak = 0;
    settle(r, root, 0);
    if (won(root)) {
        out->code = WON;
        return;
    }
    Fp key = key_of(r, root);
    int32_t root_value = value_of(r, root);
    int root_kind = passed_kind(r, root);
    if (is_dead(dead, key, root_value) || (weakest(r, root) && dominated(dead, key)) ||
        (root_kind && passed(dead, key, root_value, root_kind)) || lost(r, root)) {
        out->code = UNWINNABLE;
        return;
    }
    if (r->opening) {
        out->code = one_opening(r, mem, dead, root, max_nodes, deadline, out);
        return;
    }
    Team shared, *team = NULL;
    pthread_t thread;
    Helper *helper = NULL;
    if (threads > 1 && max_nodes > 1 && seconds > 0) {
        size_t own = mem->limit ? mem->limit - mem->bytes : 0; /* the helper's own share */
        helper = helper_start(r, dead, &shared, root, max_nodes, seconds, own, &thread);
        if (helper) team = &shared;
    }
    int code = GOING_ON;
    if (team) closed_stop_at(deadline, &team->halt);
    Run *main_run = run_new(r, mem, dead, team, root, 0, 0, 0);
    if (!main_run) code = OUT_OF_MEMORY;
    /* The relaxed rules' fixed-order run (`relaxation`), its proofs relayed to `dead`. */
    Rules relaxed_rules;
    Run *relaxed_run = NULL;
    int classes = relaxed ? relaxation(r, &relaxed_rules) : 0;
    if (classes && code == GOING_ON) {
        relaxed->crowd_after = dead->crowd_after;
        relaxed->crowd_nodes = dead->crowd_nodes;
        relaxed->crowded = 0;
        relaxed_run = run_new(&relaxed_rules, mem, relaxed, team, root, 0, 0, 0);
        if (!relaxed_run) code = OUT_OF_MEMORY;
        else {
            relaxed_run->relay = dead;
            relaxed_run->relay_classes = classes;
        }
    }
    int64_t allowance = FIRST_RUN_NODES;
    uint64_t seed = 0;
    /* With two threads, the main thread's CPU time in its fixed-order run and in the
       relaxed run, ns */
    int64_t fixed_cpu = 0, relaxed_cpu = 0;
    /* the next beam's width (0: none) and the budget's nodes the beams took (`one_beam`) */
    int64_t width = beams_pay(r) ? r->beam_first : 0, in_beams = 0;
    while (code == GOING_ON && out->nodes < max_nodes && now() < deadline &&
           !(team && team_over(team))) {
        int64_t left = max_nodes - out->nodes, began = team && relaxed_run ? thread_cpu() : 0;
        code = run_advance(main_run, allowance < left ? allowance : left, deadline, out);
        if (began) fixed_cpu += thread_cpu() - began;
        if (code != GOING_ON || out->nodes >= max_nodes) break;
        if (team) {
            if (team_over(team)) break;
            if (main_run->n_pending && !flush(main_run, 1)) { /* for the restart and the helper */
                code = OUT_OF_MEMORY;
                break;
            }
        }
        if (relaxed_run && now() < deadline && !(team && team_over(team)) &&
            (!team || RELAXED_CPU * relaxed_cpu <= fixed_cpu)) {
            /* A quarter of the nodes: as many as the shuffled runs get; or with two threads
               (the helper making those) as many as the fixed-order run, while the relaxed
               run has had at most half the main thread's CPU time (RELAXED_CPU). */
            int64_t share = team ? allowance : allowance / 2;
            left = max_nodes - out->nodes;
            began = team ? thread_cpu() : 0;
            code = relaxed_advance(relaxed_run, share < left ? share : left, deadline, out);
            if (team) relaxed_cpu += thread_cpu() - began;
            if (code == WON) { /* a win of the relaxed rules proves nothing here */
                run_end(relaxed_run, out);
                relaxed_run = NULL;
                code = GOING_ON;
            }
            if (code != GOING_ON || out->nodes >= max_nodes) break; /* lost, if anything */
        }
        if (!team) { /* the helper makes them (`helper_main`) */
            code = one_beam(r, mem, dead, root, max_nodes, deadline, &width, &in_beams, out);
            if (code == GOING_ON && out->nodes < max_nodes && now() < deadline)
                code = shuffled_runs(r, mem, dead, root, allowance / 2, max_nodes, deadline,
                                     &seed, out);
        }
        allowance *= 2;
    }
    if (main_run) run_end(main_run, out);
    if (relaxed_run) run_end(relaxed_run, out);
    if (helper) *more_peak = helper_stop(helper, thread, mem, out, &code);
    if (helper && shared.dead_mem.over) mem->over = 1;
    out->code = code;
}

/* `search_until` `seconds` from now, its closed games giving up past then (`closed_until`),
   and, with two threads, once the search halts. */
static void search(const Rules *r, Memory *mem, Table *dead, Table *relaxed, Work *root,
                   int64_t max_nodes, double seconds, int threads, Outcome *out,
                   size_t *more_peak) {
    double deadline = now() + seconds;
    closed_stop_at(deadline, NULL);
    search_until(r, mem, dead, relaxed, root, max_nodes, seconds, deadline, threads, out,
                 more_peak);
    closed_stop_at(0, NULL); /* the thread's other calls (Core.successors) stop nowhere */
}

/* -- Python ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Rules rules;
    Table dead;
    Table relaxed_dead; /* the relaxed rules' (`relaxation`) */
    Memory memory;
    uint8_t master[64]; /* the longest talon searched so far: every other is a subsequence */
    int master_size;
    int busy;
    size_t last_peak;
    int64_t last_left_for_last;
} Core;

static int parse_state(const Rules *r, PyObject *obj, Work *w, uint8_t *talon_out,
                       int *talon_size_out) {
    PyObject *columns, *talon, *found;
    long long pointer, reserve, pass;
    PyObject *prot;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 7) {
        PyErr_SetString(PyExc_TypeError, "a state is a 7-tuple");
        return 0;
    }
    if (!PyArg_ParseTuple(obj, "O!SLLO!LO!", &PyTuple_Type, &columns, &talon, &pointer,
                          &reserve, &PyTuple_Type, &found, &pass, &PyLong_Type, &prot))
        return 0;
    if (PyTuple_GET_SIZE(columns) != 4 || PyTuple_GET_SIZE(found) != 4) {
        PyErr_SetString(PyExc_ValueError, "a state has 4 columns and 4 foundations");
        return 0;
    }
    memset(w, 0, sizeof(*w));
    uint64_t seen = 0;
    for (int i = 0; i < 4; i++) {
        PyObject *col = PyTuple_GET_ITEM(columns, i);
        if (!PyBytes_Check(col) || PyBytes_GET_SIZE(col) > 52) {
            PyErr_SetString(PyExc_ValueError, "a column is bytes of at most 52 cards");
            return 0;
        }
        const uint8_t *cards = (const uint8_t *)PyBytes_AS_STRING(col);
        w->len[i] = (uint8_t)PyBytes_GET_SIZE(col);
        for (int k = 0; k < w->len[i]; k++) {
            if (cards[k] >= 52 || (seen >> cards[k] & 1)) goto bad_card;
            seen |= 1ULL << cards[k];
            w->col[i][k] = cards[k];
        }
        long f = PyLong_AsLong(PyTuple_GET_ITEM(found, i));
        if (f == -1 && PyErr_Occurred()) return 0;
        if (f < 0 || f > 13) {
            PyErr_SetString(PyExc_ValueError, "a foundation holds 0 to 13 cards");
            return 0;
        }
        w->found[i] = (uint8_t)f;
    }
    Py_ssize_t size = PyBytes_GET_SIZE(talon);
    if (size > 52) goto bad_card;
    const uint8_t *cards = (const uint8_t *)PyBytes_AS_STRING(talon);
    for (Py_ssize_t k = 0; k < size; k++) {
        if (cards[k] >= 52 || (seen >> cards[k] & 1)) goto bad_card;
        seen |= 1ULL << cards[k];
        talon_out[k] = cards[k];
        w->cards |= 1ULL << cards[k];
    }
    *talon_size_out = (int)size;
    w->talon = size ? (~0ULL >> (64 - size)) : 0;
    if (pointer < 0 || pointer > size || reserve < 0 || reserve > r->reserve_size ||
        pass < 0 || pass > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "pointer, reserve count or pass number out of range");
        return 0;
    }
    w->pointer = (uint8_t)pointer;
    w->reserve = (uint8_t)reserve;
    w->pass = (int32_t)pass;
    w->prot = PyLong_AsUnsignedLongLong(prot);
    if (w->prot == (uint64_t)-1 && PyErr_Occurred()) return 0;
    return 1;
bad_card:
    PyErr_SetString(PyExc_ValueError, "cards are 0..51, each at most once");
    return 0;
}

static PyObject *build_state(const Rules *r, const Work *w) {
    PyObject *cols[4];
    for (int i = 0; i < 4; i++) {
        cols[i] = PyBytes_FromStringAndSize((const char *)w->col[i], w->len[i]);
        if (!cols[i]) {
            for (int k = 0; k < i; k++) Py_DECREF(cols[k]);
            return NULL;
        }
    }
    uint8_t cards[64], positions[64];
    int size = talon_cards(r, w, cards, positions);
    return Py_BuildValue("((NNNN)y#ii(iiii)iK)", cols[0], cols[1], cols[2], cols[3],
                         (const char *)cards, (Py_ssize_t)size, (int)w->pointer,
                         (int)w->reserve, (int)w->found[0], (int)w->found[1],
                         (int)w->found[2], (int)w->found[3], (int)w->pass,
                         (unsigned long long)w->prot);
}

/* The `salt` of rules whose talon order is set: FNV-1a over the order, the reserve, the
   start rank, draw and passes. */
static void salt_rules(Rules *r) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < r->order_size; i++) h = (h ^ r->order[i]) * 0x100000001b3ULL;
    h = (h ^ 0xff) * 0x100000001b3ULL;
    for (int i = 0; i < r->reserve_size; i++) h = (h ^ r->reserve[i]) * 0x100000001b3ULL;
    h ^= (uint64_t)(r->start_rank << 16 | r->draw << 8 | (r->passes & 0xff));
    h *= 0x100000001b3ULL;
    r->salt = h;
}

/* Each card's place in the talon order (`order_at`): where a talon step's card lies
   (`child_of`), and which cards came from the talon (`back_keys`). */
static void order_places(Rules *r) {
    memset(r->order_at, -1, sizeof r->order_at);
    for (int i = 0; i < r->order_size; i++) r->order_at[r->order[i]] = (int8_t)i;
}

/* A state in its own talon order: for the functions the tests compare with board.py. */
static int own_state(Core *self, PyObject *obj, Rules *r, Work *w) {
    *r = self->rules;
    if (!parse_state(r, obj, w, r->order, &r->order_size)) return 0;
    order_places(r);
    salt_rules(r);
    return 1;
}

static PyObject *Core_successors(Core *self, PyObject *obj) {
    Rules r;
    Work w;
    if (!own_state(self, obj, &r, &w)) return NULL;
    Child *out = malloc(MAX_CHILDREN * sizeof(Child));
    if (!out) return PyErr_NoMemory();
    int n = successors(&r, &w, out, NULL);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        /* The way the search makes and keeps a child: again from the parent, packed. */
        Work child;
        Packed packed;
        child_of(&r, &w, &out[i], &child);
        pack(&child, &packed);
        unpack(&packed, &child);
        PyObject *state = build_state(&r, &child);
        PyObject *item = state ? Py_BuildValue("i(iii)N", (int)out[i].priority,
                                               (int)out[i].draws, (int)out[i].card,
                                               (int)out[i].target, state)
                               : NULL;
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    free(out);
    return list;
}

/* The child `c` of `w` as the search keeps a state (`child_of`, then packed). */
static void kept_child(const Rules *r, const Work *w, const Child *c, Work *out) {
    Work child;
    Packed packed;
    child_of(r, w, c, &child);
    pack(&child, &packed);
    unpack(&packed, out);
}

/* A step of the line made again (`kept_child`): a talon step's pass from `reach`, whose
   draws name one waste top each. */
static void line_step(const Rules *r, const Work *w, const Step *step, Work *out) {
    Child c;
    memset(&c, 0, sizeof c);
    c.draws = step->draws;
    c.card = step->card;
    c.target = step->target;
    int from_reserve = w->reserve && r->reserve[w->reserve - 1] == step->card;
    if (r->passes >= 0 && !from_reserve && (w->cards & (1ULL << step->card))) {
        Reach reached[160];
        int n = reach(r, w->pointer, talon_size(w), w->pass, reached);
        for (int k = 0; k < n; k++)
            if (reached[k].draws == step->draws) c.added = (uint8_t)reached[k].added;
    }
    kept_child(r, w, &c, out);
}

/* search.py's `_shortcut` (the same line, as the keys and values are board.py's): the
   states of a winning line made again step by step, each key with its last place on the
   line; then from the start, each time the step to the furthest later state of the line
   that one step reaches, its value no higher. A depth-first line can be hundreds of
   thousands of steps long (app draw 3 with three passes, deal 82: 778,583 steps, which
   Python's moves made again in some 16 s past the search's 10). */
static PyObject *Core_shortcut(Core *self, PyObject *args) {
    PyObject *obj, *seq;
    if (!PyArg_ParseTuple(args, "OO", &obj, &seq)) return NULL;
    Rules r;
    Work here;
    if (!own_state(self, obj, &r, &here)) return NULL;
    PyObject *fast = PySequence_Fast(seq, "steps must be a sequence of (draws, card, target)");
    if (!fast) return NULL;
    size_t n = (size_t)PySequence_Fast_GET_SIZE(fast);
    Step *steps = malloc((n + 1) * sizeof(Step));
    int32_t *values = malloc((n + 1) * sizeof(int32_t));
    Child *out = malloc(MAX_CHILDREN * sizeof(Child));
    Memory mem = {0};
    Table line = {0}; /* each key -> its last place on the line */
    PyObject *result = NULL;
    if (!steps || !values || !out || n >= INT32_MAX) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        int draws, card, target;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, (Py_ssize_t)i), "iii", &draws,
                              &card, &target))
            goto done;
        steps[i] = (Step){(int16_t)draws, (int8_t)card, (int8_t)target};
    }
    Work w = here;
    for (size_t i = 0; i <= n; i++) {
        if (i) {
            Work next;
            line_step(&r, &w, &steps[i - 1], &next);
            w = next;
        }
        values[i] = value_of(&r, &w);
        int added;
        Slot *slot = table_put(&line, &mem, key_of(&r, &w), (int32_t)i, &added);
        if (!slot) {
            PyErr_NoMemory();
            goto done;
        }
        slot->value = (int32_t)i;
    }
    if (w.found[0] + w.found[1] + w.found[2] + w.found[3] != 52) {
        PyErr_SetString(PyExc_ValueError, "the steps are not a winning line from this state");
        goto done;
    }
    result = PyList_New(0);
    for (size_t i = 0; result && i < n;) {
        int count = successors(&r, &here, out, NULL);
        int64_t best = (int64_t)i;
        Work best_child;
        int best_k = -1;
        for (int k = 0; k < count; k++) {
            Work child;
            kept_child(&r, &here, &out[k], &child);
            const Slot *at = table_find(&line, key_of(&r, &child));
            int64_t j = at ? at->value : -1;
            if (j > best && value_of(&r, &child) <= values[j]) {
                best = j;
                best_child = child;
                best_k = k;
            }
        }
        if (best_k < 0) {
            PyErr_SetString(PyExc_ValueError, "the steps are not a winning line from this state");
            Py_CLEAR(result);
            break;
        }
        PyObject *step = Py_BuildValue("(iii)", (int)out[best_k].draws, (int)out[best_k].card,
                                       (int)out[best_k].target);
        if (!step || PyList_Append(result, step) < 0) Py_CLEAR(result);
        Py_XDECREF(step);
        here = best_child;
        i = (size_t)best;
    }
done:
    Py_DECREF(fast);
    free(steps);
    free(values);
    free(out);
    table_free(&line, &mem);
    return result;
}

static PyObject *Core_settle(Core *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"state", "cascade", NULL};
    PyObject *obj;
    int cascade = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|p", names, &obj, &cascade)) return NULL;
    Rules r;
    Work w;
    if (!own_state(self, obj, &r, &w)) return NULL;
    settle(&r, &w, cascade);
    return build_state(&r, &w);
}

static PyObject *Core_key(Core *self, PyObject *obj) {
    Rules r;
    Work w;
    if (!own_state(self, obj, &r, &w)) return NULL;
    Fp k = key_of(&r, &w);
    uint8_t out[16];
    memcpy(out, &k.a, 8);
    memcpy(out + 8, &k.b, 8);
    return PyBytes_FromStringAndSize((const char *)out, 16);
}

static PyObject *Core_value(Core *self, PyObject *obj) {
    Rules r;
    Work w;
    if (!own_state(self, obj, &r, &w)) return NULL;
    return PyLong_FromLong(value_of(&r, &w));
}

static PyObject *Core_lost(Core *self, PyObject *obj) {
    Rules r;
    Work w;
    if (!own_state(self, obj, &r, &w)) return NULL;
    return PyBool_FromLong(lost(&r, &w));
}

static PyObject *Core_columns_cannot_hold(Core *self, PyObject *obj) {
    Rules r;
    Work w;
    if (!own_state(self, obj, &r, &w)) return NULL;
    return PyBool_FromLong(columns_cannot_hold(&r, &w));
}

static PyObject *Core_closed_game_lost(Core *self, PyObject *obj) {
    Rules r;
    Work w;
    if (!own_state(self, obj, &r, &w)) return NULL;
    return PyBool_FromLong(closed_game_lost(&r, &w));
}

static PyObject *Core_ends_game_lost(Core *self, PyObject *obj) {
    Rules r;
    Work w;
    if (!own_state(self, obj, &r, &w)) return NULL;
    return PyBool_FromLong(ends_game_lost(&r, &w));
}

static PyObject *Core_runs_to_hold(Core *self, PyObject *args) {
    (void)self;
    unsigned long long cards, allowed;
    if (!PyArg_ParseTuple(args, "KK", &cards, &allowed)) return NULL;
    if ((cards | allowed) >> 52) {
        PyErr_SetString(PyExc_ValueError, "cards and allowed are sets of the 52 cards' bits");
        return NULL;
    }
    return PyLong_FromLong(runs_to_hold(cards, allowed));
}

static PyObject *Core_reserve_stuck(Core *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"state", "lookahead", "certain", NULL};
    PyObject *obj;
    int lookahead = self->rules.lookahead, certain = CERTAIN; /* the search's by default */
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|ip", names, &obj, &lookahead, &certain))
        return NULL;
    if (lookahead < 0 || lookahead > MAX_LOOKAHEAD) {
        PyErr_SetString(PyExc_ValueError, "the lookahead is 0..8");
        return NULL;
    }
    Rules r;
    Work w;
    if (!own_state(self, obj, &r, &w)) return NULL;
    r.lookahead = lookahead;
    r.certain = certain;
    return PyBool_FromLong(reserve_stuck(&r, &w));
}

static int subsequence(const uint8_t *small, int n, const uint8_t *big, int m) {
    int k = 0;
    for (int i = 0; i < m && k < n; i++)
        if (big[i] == small[k]) k++;
    return k == n;
}

/* Core.search's and Core.beam's start: the root from `obj` into *root, its talon order
   into *r, and the proofs kept only while every root's talon is a subsequence of one order
   (they are keyed by the talon's card set). 0 with an exception set. */
static int begin(Core *self, PyObject *obj, Rules *r, Work *root) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Core is already searching (one thread each)");
        return 0;
    }
    *r = self->rules;
    if (!parse_state(r, obj, root, r->order, &r->order_size)) return 0;
    order_places(r);
    salt_rules(r);
    if (subsequence(r->order, r->order_size, self->master, self->master_size)) {
    } else if (subsequence(self->master, self->master_size, r->order, r->order_size)) {
        memcpy(self->master, r->order, (size_t)r->order_size);
        self->master_size = r->order_size;
    } else {
        table_free(&self->dead, &self->memory);
        table_free(&self->relaxed_dead, &self->memory);
        memcpy(self->master, r->order, (size_t)r->order_size);
        self->master_size = r->order_size;
    }
    return 1;
}

/* (code, steps, nodes) of an outcome, which it frees; NULL with an exception set. */
static PyObject *outcome_result(Outcome *out) {
    if (out->code == OUT_OF_MEMORY) {
        free(out->steps);
        return PyErr_NoMemory();
    }
    PyObject *steps = PyList_New((Py_ssize_t)out->length);
    for (size_t i = 0; steps && i < out->length; i++) {
        PyObject *step = Py_BuildValue("(iii)", (int)out->steps[i].draws,
                                       (int)out->steps[i].card, (int)out->steps[i].target);
        if (!step) {
            Py_CLEAR(steps);
            break;
        }
        PyList_SET_ITEM(steps, (Py_ssize_t)i, step);
    }
    free(out->steps);
    if (!steps) return NULL;
    return Py_BuildValue("(iNL)", out->code, steps, (long long)out->nodes);
}

static PyObject *Core_search(Core *self, PyObject *args) {
    PyObject *obj;
    long long max_nodes;
    double seconds;
    int threads = 1;
    unsigned long long max_bytes = 0;
    if (!PyArg_ParseTuple(args, "OLd|iK", &obj, &max_nodes, &seconds, &threads, &max_bytes))
        return NULL;
    if (threads != 1 && threads != 2) {
        PyErr_SetString(PyExc_ValueError, "threads is 1 or 2");
        return NULL;
    }
    Rules r;
    Work root;
    if (!begin(self, obj, &r, &root)) return NULL;
    Outcome out;
    self->busy = 1;
    self->memory.peak = self->memory.bytes;
    /* The limit counts what this search adds (proofs kept from earlier ones aside). */
    self->memory.limit = max_bytes ? self->memory.bytes + (size_t)max_bytes : 0;
    self->memory.over = 0;
    size_t helper_peak;
    Py_BEGIN_ALLOW_THREADS
    search(&r, &self->memory, &self->dead, &self->relaxed_dead, &root, max_nodes, seconds,
           threads, &out, &helper_peak);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->last_peak = self->memory.peak + helper_peak;
    self->last_left_for_last = out.left_for_last;
    if (out.code == OUT_OF_MEMORY && self->memory.over)
        out.code = GOING_ON; /* the memory budget ran out: not known, like time or nodes */
    return outcome_result(&out);
}

static PyObject *Core_beam(Core *self, PyObject *args) {
    PyObject *obj;
    long long width, max_nodes;
    int up = -1, reserve = -1; /* the rules' (`beam_up`, `beam_reserve`) */
    if (!PyArg_ParseTuple(args, "OLL|ii", &obj, &width, &max_nodes, &up, &reserve)) return NULL;
    if (width < 1) {
        PyErr_SetString(PyExc_ValueError, "width is at least 1");
        return NULL;
    }
    Rules r;
    Work root;
    if (!begin(self, obj, &r, &root)) return NULL;
    settle(&r, &root, 0);
    if (up < 0) up = beam_up(&r);
    if (reserve < 0) reserve = beam_reserve(&r);
    Outcome out = {GOING_ON, 0, NULL, 0, 0};
    self->busy = 1;
    self->memory.limit = 0;
    Py_BEGIN_ALLOW_THREADS
    if (closed_plays(&r)) closed_grow(CLOSED_MEMO_BEAM); /* as the helper's */
    out.code = beam(&r, &self->memory, &self->dead, NULL, &root, width, up, reserve, max_nodes,
                    1e300, &out);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    return outcome_result(&out);
}

static PyObject *Core_known_dead(Core *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(self->dead.count);
}

static PyObject *Core_dead_slots(Core *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(self->dead.slots ? self->dead.mask + 1 : 0);
}

static PyObject *Core_peak_bytes(Core *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(self->last_peak);
}

static PyObject *Core_left_for_last(Core *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->last_left_for_last);
}

static PyObject *Core_get_path_children(Core *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(self->rules.path_children);
}

static int Core_set_path_children(Core *self, PyObject *value, void *closure) {
    (void)closure;
    size_t n = value ? PyLong_AsSize_t(value) : 0;
    if (n == (size_t)-1 && PyErr_Occurred()) return -1;
    if (!n) {
        PyErr_SetString(PyExc_ValueError, "path_children is a count above 0");
        return -1;
    }
    self->rules.path_children = n;
    return 0;
}

/* Sets *to from a Python int of at least `least`; else a ValueError saying `message`. */
static int set_count(PyObject *value, long long least, const char *message, int64_t *to) {
    long long n = value ? PyLong_AsLongLong(value) : least - 1;
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n < least) {
        PyErr_SetString(PyExc_ValueError, message);
        return -1;
    }
    *to = n;
    return 0;
}

/* A count of the search's Rules that a test sets (Core.beam_after and Core.beam_first: the
   one-thread search's first beam, after how many nodes of the runs and how wide, `one_beam`;
   Core.leave_every): its place in Rules, its least value and what a lower one is told. The
   getset entry's closure names it. */
typedef struct {
    size_t offset;
    long long least;
    const char *message;
} CountKnob;

static CountKnob beam_after_knob = {offsetof(Rules, beam_after), 0,
                                    "beam_after is a count of nodes"};
static CountKnob beam_first_knob = {offsetof(Rules, beam_first), 1,
                                    "beam_first is a width above 0"};
static CountKnob leave_every_knob = {offsetof(Rules, leave_every), 0,
                                     "leave_every is a count, 0 or more"};

static int64_t *knob_of(Core *self, const CountKnob *knob) {
    return (int64_t *)((char *)&self->rules + knob->offset);
}

static PyObject *Core_get_count(Core *self, void *closure) {
    return PyLong_FromLongLong(*knob_of(self, closure));
}

static int Core_set_count(Core *self, PyObject *value, void *closure) {
    const CountKnob *knob = closure;
    return set_count(value, knob->least, knob->message, knob_of(self, knob));
}

static PyObject *Core_get_opening(Core *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->rules.opening);
}

static int Core_set_opening(Core *self, PyObject *value, void *closure) {
    (void)closure;
    unsigned long long seed = value ? PyLong_AsUnsignedLongLong(value) : 0;
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    self->rules.opening = seed;
    return 0;
}

static PyObject *Core_get_covered_memo(Core *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(!self->rules.covered_off);
}

static int Core_set_covered_memo(Core *self, PyObject *value, void *closure) {
    (void)closure;
    int on = value ? PyObject_IsTrue(value) : 1;
    if (on < 0) return -1;
    self->rules.covered_off = !on;
    return 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"draw", "passes", "tableau_mode", "empty_any", "foundation_to_tableau",
                            "autocomplete", "reserve", "start_rank", NULL};
    int draw, passes, mode, empty_any, returns, autocomplete_, start_rank;
    const char *reserve;
    Py_ssize_t reserve_size;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiipppy#i", names, &draw, &passes, &mode,
                                     &empty_any, &returns, &autocomplete_, &reserve,
                                     &reserve_size, &start_rank))
        return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Core is searching");
        return -1;
    }
    if ((draw != 1 && draw != 3) || mode < 0 || mode > 2 || reserve_size > 52 || start_rank < 0 ||
        start_rank > 12) {
        PyErr_SetString(PyExc_ValueError, "bad rules for the solver core");
        return -1;
    }
    table_free(&self->dead, &self->memory);
    table_free(&self->relaxed_dead, &self->memory);
    memset(&self->rules, 0, sizeof(self->rules));
    Rules *r = &self->rules;
    r->draw = draw;
    r->passes = passes < 0 ? -1 : passes;
    r->mode = mode;
    r->empty_any = empty_any;
    r->returns = returns;
    r->autocomplete = autocomplete_;
    r->start_rank = start_rank;
    r->reserve_size = (int)reserve_size;
    r->lookahead = LOOKAHEAD;
    r->certain = CERTAIN;
    r->path_children = PATH_CHILDREN;
    r->beam_after = BEAM_FAIR_GO;
    r->beam_first = BEAM_FIRST_WIDTH;
    for (Py_ssize_t i = 0; i < reserve_size; i++) {
        if ((uint8_t)reserve[i] >= 52) {
            PyErr_SetString(PyExc_ValueError, "cards are 0..51");
            return -1;
        }
        r->reserve[i] = (uint8_t)reserve[i];
        r->reserve_mask[i + 1] = r->reserve_mask[i] | 1ULL << r->reserve[i];
    }
    for (int c = 0; c < 52; c++) {
        r->rel[c] = (uint8_t)((c % 13 - start_rank + 13) % 13);
        r->rank_bit[c] = (uint16_t)(1u << r->rel[c]);
        if (!r->rel[c]) r->start_cards |= 1ULL << c;
    }
    for (int c = 0; c < 52; c++) {
        r->from[c] = 0;
        for (int d = c / 13 * 13; d < c / 13 * 13 + 13; d++)
            if (r->rel[d] >= r->rel[c]) r->from[c] |= 1ULL << d;
        r->below[c] = 0x1fffULL << 13 * (c / 13) & ~r->from[c];
    }
    r->frozen_by[0] = 0;
    for (int i = 0; i < r->reserve_size; i++)
        r->frozen_by[i + 1] = r->frozen_by[i] | r->from[r->reserve[i]];
    self->master_size = 0;
    return 0;
}

static void Core_dealloc(Core *self) {
    table_free(&self->dead, &self->memory);
    table_free(&self->relaxed_dead, &self->memory);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Core_methods[] = {
    {"search", (PyCFunction)Core_search, METH_VARARGS,
     "search(state, max_nodes, seconds, threads=1) -> (code, steps, nodes): 0 unknown, 1 "
     "won, 2 unwinnable."},
    {"shortcut", (PyCFunction)Core_shortcut, METH_VARARGS,
     "shortcut(start, steps) -> steps: the winning line `steps` from the settled `start` with "
     "its detours cut out (search.py's _shortcut)."},
    {"beam", (PyCFunction)Core_beam, METH_VARARGS,
     "beam(state, width, max_nodes[, up, reserve]) -> (code, steps, nodes): 0 no win found, "
     "1 won (the search's beam, one thread, cards up and reserve cards weighing `up` and "
     "`reserve`, by default the rules' weights; see search.beam)."},
    {"successors", (PyCFunction)Core_successors, METH_O,
     "successors(state) -> [(priority, step, child)], as board.Problem.successors."},
    {"settle", (PyCFunction)(void (*)(void))Core_settle, METH_VARARGS | METH_KEYWORDS,
     "settle(state, cascade=True) -> state, as board.Problem.settle."},
    {"key", (PyCFunction)Core_key, METH_O, "key(state) -> bytes: the 128-bit fingerprint."},
    {"value", (PyCFunction)Core_value, METH_O, "value(state) -> int, as board.Problem.value."},
    {"lost", (PyCFunction)Core_lost, METH_O, "lost(state) -> bool, as board.Problem.lost."},
    {"columns_cannot_hold", (PyCFunction)Core_columns_cannot_hold, METH_O,
     "columns_cannot_hold(state) -> bool, as board.Problem.columns_cannot_hold."},
    {"closed_game_lost", (PyCFunction)Core_closed_game_lost, METH_O,
     "closed_game_lost(state) -> bool, as board.Problem.closed_game_lost."},
    {"ends_game_lost", (PyCFunction)Core_ends_game_lost, METH_O,
     "ends_game_lost(state) -> bool, as board.Problem.ends_game_lost."},
    {"runs_to_hold", (PyCFunction)Core_runs_to_hold, METH_VARARGS,
     "runs_to_hold(cards, allowed) -> int, as board._runs_to_hold."},
    {"reserve_stuck", (PyCFunction)(void (*)(void))Core_reserve_stuck,
     METH_VARARGS | METH_KEYWORDS,
     "reserve_stuck(state, lookahead=the search's, certain=True) -> bool, as "
     "board.Problem.reserve_stuck."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"known_dead", (getter)Core_known_dead, NULL, "states proved lost so far", NULL},
    {"dead_slots", (getter)Core_dead_slots, NULL, "the slots of the table of those", NULL},
    {"peak_bytes", (getter)Core_peak_bytes, NULL, "the last search's peak memory", NULL},
    {"left_for_last", (getter)Core_left_for_last, NULL,
     "children the last search left for last, the other thread being in them (or leave_every)",
     NULL},
    {"path_children", (getter)Core_get_path_children, (setter)Core_set_path_children,
     "children the depth-first path holds, about, before the frames nearest the root give "
     "theirs up (made again when the search comes back to them: the same search)", NULL},
    {"beam_after", (getter)Core_get_count, (setter)Core_set_count,
     "the runs' nodes before the one-thread search's first beam (search.Solver.BEAM_AFTER)",
     &beam_after_knob},
    {"beam_first", (getter)Core_get_count, (setter)Core_set_count,
     "the one-thread search's first beam's width (search.Solver.BEAM_FIRST)", &beam_first_knob},
    {"covered_memo", (getter)Core_get_covered_memo, (setter)Core_set_covered_memo,
     "whether the reserve test under top-or-all moves remembers its answers (`top_covered`; "
     "the same answers either way)", NULL},
    {"opening", (getter)Core_get_opening, (setter)Core_set_opening,
     "0: searches follow the schedule; a seed: each search is that one shuffled run, one "
     "thread (bench/openings.py)", NULL},
    {"leave_every", (getter)Core_get_count, (setter)Core_set_count,
     "0: a run leaves for last only the children the other thread is in; n, a test's: every "
     "n-th fresh child too, as if the other thread were in it", &leave_every_knob},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "app.solver._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One problem's search (rules, reserve, start rank) and the states proved lost.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "app.solver._core", "The solver's compiled core.", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
#if defined(__x86_64__) && defined(__GNUC__)
    has_popcnt = __builtin_cpu_supports("popcnt");
#endif
    init_tables();
    init_links();
    init_position_tags();
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
