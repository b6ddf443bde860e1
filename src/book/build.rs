//! Building a book: drop-out expansion (Lincke 2000) from the start
//! position. Every expanded position has all its moves scored (a leaf's
//! score is a fixed search of the position after it); scores are backed up
//! by negamax; the next position to expand is the leaf of least expansion
//! priority, for either side as the book's owner:
//!
//! ```text
//! priority(leaf) = sum over the path of  weight + (the owner moved ? best - score of the move : 0)
//! ```
//!
//! so the owner's near-best lines and all of the opponent's replies are
//! expanded, the shallower first. The book file is the whole state: a
//! build resumes from it (the tree is replayed from the start position).

use super::{Book, DIRECT, LEAF, Record, clamp_score, move_code, rules_key, up};
use crate::game::{Game, MoveList, Score, outcome_score};
use crate::search::{Control, Limits, Searcher};
use std::collections::HashMap;

/// What a build does.
#[derive(Clone, Debug)]
pub struct Config {
    /// Stop when this many positions are expanded (resumed ones included).
    pub budget: u64,
    /// The leaf search: a depth ...
    pub depth: Option<u32>,
    /// ... or a node count.
    pub nodes: Option<u64>,
    /// The expansion cost of one ply, centi-men.
    pub weight: i64,
    /// No position this many plies from the start is expanded.
    pub max_ply: u32,
    /// Expand only below the root moves of shard K of N (1-based): the
    /// root moves whose index in the generated order is K-1 modulo N.
    pub shard: (u64, u64),
    /// The leaf search's table, MiB.
    pub hash_mib: usize,
}

/// A move of an expanded position.
#[derive(Clone, Debug)]
struct Child<G: Game> {
    code: u32,
    hash: u64,
    pos: G::Position,
    /// The leaf score from the mover's view, and its depth.
    score: Score,
    depth: u8,
    /// The game is over after the move: never expanded.
    terminal: bool,
    /// A direct search of the position after the move (its score from the
    /// mover's view, its depth), from `salto book rescore`: it stands for
    /// the move while it is deeper than the value backed up from below.
    direct: Option<(Score, u8)>,
}

impl<G: Game> Child<G> {
    /// The move's value from the mover's view and its depth: the value
    /// backed up from the expanded position below (`below`, from that
    /// position's view), or the leaf search; a deeper direct search
    /// replaces either. The flag says whether the direct search was used.
    fn value(&self, below: Option<&Eval>) -> (Score, u8, bool) {
        let (score, depth) = match below {
            Some(e) => (up(e.value), e.depth.saturating_add(1)),
            None => (self.score, self.depth),
        };
        match self.direct {
            Some((s, d)) if d > depth => (s, d, true),
            _ => (score, depth, false),
        }
    }
}

#[derive(Clone, Debug)]
struct Node<G: Game> {
    ply: u32,
    children: Vec<Child<G>>,
}

/// A position's backed-up values in one pass over the tree.
#[derive(Clone, Copy, Debug)]
struct Eval {
    /// From the view of the player to move.
    value: Score,
    depth: u8,
    count: u32,
    /// The expansion priority for each owner, and the child it goes to.
    prio: [i64; 2],
    next: [Option<usize>; 2],
}

const NEVER: i64 = i64::MAX / 4;

/// A book being built.
pub struct Builder<G: Game> {
    game: G,
    cfg: Config,
    searcher: Searcher<G>,
    nodes: HashMap<u64, Node<G>>,
    root: G::Position,
    /// Leaf searches done in this run.
    pub searches: u64,
}

impl<G: Game> Builder<G> {
    /// A build from the start position, continuing `resume` (a book of
    /// this game) if given.
    pub fn new(game: G, cfg: Config, resume: Option<&Book>) -> Result<Self, String> {
        if game.num_players() != 2 {
            return Err("a book can be built for two-player games only".into());
        }
        let mut b = Builder {
            game,
            searcher: Searcher::new(game, cfg.hash_mib, 1),
            cfg,
            nodes: HashMap::new(),
            root: game.start(),
            searches: 0,
        };
        if let Some(book) = resume {
            book.check_for(&game)?;
            b.replay(book);
        }
        if b.nodes.is_empty() {
            let root = b.root.clone();
            b.expand(&root, 0);
        }
        Ok(b)
    }

    /// Positions expanded so far.
    pub fn expanded(&self) -> u64 {
        self.nodes.len() as u64
    }

    /// Rebuilds the tree of `book` from the start position: a position in
    /// the book whose every legal move has a record is expanded with those
    /// scores, without searching.
    fn replay(&mut self, book: &Book) {
        let mut queue = vec![(self.root.clone(), 0u32)];
        let mut list = MoveList::new();
        while let Some((pos, ply)) = queue.pop() {
            let key = self.game.hash(&pos);
            if self.nodes.contains_key(&key) || book.entries(key).is_empty() {
                continue;
            }
            list.clear();
            self.game.generate(&pos, &mut list);
            let moves = book.moves(&self.game, &pos);
            let mut children = Vec::with_capacity(list.len());
            for &mv in list.iter() {
                let Some(&(_, r)) = moves.iter().find(|(m, _)| *m == mv) else {
                    children.clear();
                    break;
                };
                let child = self.game.play(&pos, mv);
                let hash = self.game.hash(&child);
                children.push(Child {
                    code: r.mv,
                    hash,
                    terminal: self.is_over(&child),
                    pos: child.clone(),
                    score: r.score as Score,
                    depth: r.depth,
                    direct: (r.flags & DIRECT != 0).then_some((r.score as Score, r.depth)),
                });
                if r.flags & LEAF == 0 {
                    queue.push((child, ply + 1));
                }
            }
            if !children.is_empty() {
                self.nodes.insert(key, Node { ply, children });
            }
        }
    }

    fn is_over(&self, pos: &G::Position) -> bool {
        self.game.outcome(pos).is_some() || self.game.count_moves(pos) == 0
    }

    /// The score of `pos` for the player to move, and its depth: the leaf
    /// search of the build, or a search to `depth` when given.
    fn score_leaf(&mut self, pos: &G::Position, depth: Option<u32>) -> (Score, u8) {
        let g = self.game;
        let me = g.to_move(pos);
        if let Some(o) = g.outcome(pos) {
            return (outcome_score(&g, pos, o, me, 0).unwrap_or(0), 0);
        }
        if g.count_moves(pos) == 0 {
            return (-crate::game::SCORE_WIN, 0);
        }
        let limits = Limits {
            depth: depth.or(self.cfg.depth),
            nodes: if depth.is_some() {
                None
            } else {
                self.cfg.nodes
            },
            multipv: 1,
            ..Limits::default()
        };
        let control = Control::new();
        let r = self
            .searcher
            .search(pos, &[], &limits, &control, &mut |_| {});
        self.searches += 1;
        (r.score, r.depth.min(255) as u8)
    }

    /// Expands `pos`: every move scored by a leaf search.
    fn expand(&mut self, pos: &G::Position, ply: u32) {
        let g = self.game;
        let mut list = MoveList::new();
        g.generate(pos, &mut list);
        let mut children = Vec::with_capacity(list.len());
        for &mv in list.iter() {
            let child = g.play(pos, mv);
            let (s, depth) = self.score_leaf(&child, None);
            children.push(Child {
                code: move_code(&g, pos, mv),
                hash: g.hash(&child),
                terminal: self.is_over(&child),
                pos: child,
                score: up(s),
                depth: depth.saturating_add(1),
                direct: None,
            });
        }
        if !children.is_empty() {
            self.nodes.insert(g.hash(pos), Node { ply, children });
        }
    }

    /// One pass over the tree: every expanded position's backed-up value,
    /// count and expansion priorities.
    fn evaluate(&self) -> HashMap<u64, Eval> {
        let mut memo = HashMap::with_capacity(self.nodes.len());
        let mut open = std::collections::HashSet::new();
        self.eval_node(self.game.hash(&self.root), &mut memo, &mut open);
        memo
    }

    fn eval_node(
        &self,
        key: u64,
        memo: &mut HashMap<u64, Eval>,
        open: &mut std::collections::HashSet<u64>,
    ) -> Option<Eval> {
        if let Some(e) = memo.get(&key) {
            return Some(*e);
        }
        let node = self.nodes.get(&key)?;
        if !open.insert(key) {
            return None; // a cycle: the child counts as a leaf
        }
        let owner_moves = self.game.to_move(&node.children[0].pos) ^ 1;
        let is_root = key == self.game.hash(&self.root);
        // Per child: (score from the mover's view, depth, count, prio for
        // each owner when it is the best move).
        let mut rows = Vec::with_capacity(node.children.len());
        for (i, c) in node.children.iter().enumerate() {
            let below = if c.terminal {
                None
            } else {
                self.eval_node(c.hash, memo, open)
            };
            let in_shard = !is_root || (i as u64) % self.cfg.shard.1 == self.cfg.shard.0 - 1;
            let (value, depth, _) = c.value(below.as_ref());
            let row = match below {
                Some(e) => (value, depth, e.count, e.prio),
                None => {
                    let p = if c.terminal
                        || !in_shard
                        || node.ply + 1 >= self.cfg.max_ply
                        || self.nodes.contains_key(&c.hash)
                    {
                        NEVER
                    } else {
                        0
                    };
                    (value, depth, 0, [p, p])
                }
            };
            let row = if in_shard {
                row
            } else {
                (row.0, row.1, row.2, [NEVER, NEVER])
            };
            rows.push(row);
        }
        open.remove(&key);
        let (bi, best) = rows
            .iter()
            .enumerate()
            .max_by_key(|(i, r)| (r.0, std::cmp::Reverse(*i)))
            .map(|(i, r)| (i, *r))?;
        let mut e = Eval {
            value: best.0,
            depth: best.1,
            count: 1 + rows.iter().map(|r| r.2).fold(0u32, u32::saturating_add),
            prio: [NEVER; 2],
            next: [None; 2],
        };
        let _ = bi;
        for owner in 0..2 {
            for (i, r) in rows.iter().enumerate() {
                if r.3[owner] >= NEVER {
                    continue;
                }
                let dev = if owner == owner_moves {
                    (best.0 - r.0) as i64
                } else {
                    0
                };
                let p = self.cfg.weight + dev + r.3[owner];
                if p < e.prio[owner] {
                    e.prio[owner] = p;
                    e.next[owner] = Some(i);
                }
            }
        }
        memo.insert(key, e);
        Some(e)
    }

    /// The root's value and the best root move's code.
    pub fn root_value(&self) -> Option<(Score, String)> {
        let memo = self.evaluate();
        let key = self.game.hash(&self.root);
        let e = memo.get(&key)?;
        let node = self.nodes.get(&key)?;
        let mut list = MoveList::new();
        self.game.generate(&self.root, &mut list);
        let best = node
            .children
            .iter()
            .zip(list.iter())
            .max_by_key(|(c, _)| c.value(self.expanded_below(&memo, c)).0)
            .map(|(_, &m)| self.game.format_move(&self.root, m))?;
        Some((e.value, best))
    }

    /// Expands the leaf of least priority; `false` when none is left.
    pub fn step(&mut self) -> bool {
        let memo = self.evaluate();
        let root_key = self.game.hash(&self.root);
        let Some(root) = memo.get(&root_key) else {
            return false;
        };
        // The owner whose best leaf is nearer; ties alternate.
        let owner = match root.prio[0].cmp(&root.prio[1]) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => self.nodes.len() & 1,
        };
        if root.prio[owner] >= NEVER {
            return false;
        }
        let mut key = root_key;
        for _ in 0..=self.cfg.max_ply {
            let (Some(e), Some(node)) = (memo.get(&key), self.nodes.get(&key)) else {
                return false;
            };
            let Some(i) = e.next[owner] else { return false };
            let c = &node.children[i];
            if !self.nodes.contains_key(&c.hash) {
                let (pos, ply) = (c.pos.clone(), node.ply + 1);
                self.expand(&pos, ply);
                return true;
            }
            key = c.hash;
        }
        false
    }

    /// The backed-up values of the position after `c`, if the book
    /// expands it.
    fn expanded_below<'m>(&self, memo: &'m HashMap<u64, Eval>, c: &Child<G>) -> Option<&'m Eval> {
        if self.nodes.contains_key(&c.hash) {
            memo.get(&c.hash)
        } else {
            None
        }
    }

    /// The expanded positions fewer than `plies` from the start, the
    /// shallowest first (then by key: the order is the same every run).
    pub fn positions_above(&self, plies: u32) -> Vec<u64> {
        let mut keys: Vec<(u32, u64)> = self
            .nodes
            .iter()
            .filter(|(_, n)| n.ply < plies)
            .map(|(&k, n)| (n.ply, k))
            .collect();
        keys.sort_unstable();
        keys.into_iter().map(|(_, k)| k).collect()
    }

    /// Re-scores the moves of the expanded position `key` with a multi-PV
    /// search of `depth` plies over all its moves (what `salto analyse
    /// --depth D --multipv N` reports), unless every move already has a
    /// direct search that deep; each score stands for its move while it is
    /// deeper than the value backed up from the book's tree, so that the
    /// first plies, whose backed-up values come from shallow leaves a few
    /// plies down, get the judgement of one deep search. Returns whether a
    /// search was made.
    pub fn rescore(&mut self, key: u64, depth: u32) -> bool {
        let g = self.game;
        let pos = if key == g.hash(&self.root) {
            self.root.clone()
        } else {
            let found = self
                .nodes
                .values()
                .flat_map(|n| n.children.iter())
                .find(|c| c.hash == key)
                .map(|c| c.pos.clone());
            let Some(pos) = found else { return false };
            pos
        };
        let Some(node) = self.nodes.get(&key) else {
            return false;
        };
        let depth8 = depth.min(255) as u8;
        if node
            .children
            .iter()
            .all(|c| c.terminal || c.direct.is_some_and(|(_, d)| d >= depth8))
        {
            return false;
        }
        let mut list = MoveList::new();
        g.generate(&pos, &mut list);
        let limits = Limits {
            depth: Some(depth),
            multipv: list.len(),
            ..Limits::default()
        };
        let control = Control::new();
        let mut last: Vec<(u32, G::Move, Score)> = Vec::new();
        self.searcher
            .search(&pos, &[], &limits, &control, &mut |info| {
                if let Some(&mv) = info.pv.first() {
                    last.retain(|&(_, m, _)| m != mv);
                    last.push((info.depth, mv, info.score));
                }
            });
        self.searches += 1;
        let Some(node) = self.nodes.get_mut(&key) else {
            return false;
        };
        for (c, &mv) in node.children.iter_mut().zip(list.iter()) {
            if c.terminal {
                continue;
            }
            if let Some(&(d, _, score)) = last.iter().find(|&&(_, m, _)| m == mv) {
                c.direct = Some((score, d.min(255) as u8));
            }
        }
        true
    }

    /// The book as it stands.
    pub fn book(&self) -> Book {
        let memo = self.evaluate();
        let mut records = Vec::new();
        for (&key, node) in &self.nodes {
            for c in &node.children {
                let below = self.expanded_below(&memo, c);
                let (score, depth, direct) = c.value(below);
                let (count, leaf) = below.map_or((0, true), |e| (e.count, false));
                records.push(Record {
                    key,
                    mv: c.code,
                    score: clamp_score(score),
                    depth,
                    flags: if leaf { LEAF } else { 0 } | if direct { DIRECT } else { 0 },
                    count,
                });
            }
        }
        Book::new(self.game.name(), rules_key(&self.game), records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::EnglishGame;

    fn cfg(budget: u64) -> Config {
        Config {
            budget,
            depth: Some(2),
            nodes: None,
            weight: 10,
            max_ply: 20,
            shard: (1, 1),
            hash_mib: 1,
        }
    }

    fn run(b: &mut Builder<EnglishGame>, budget: u64) {
        while b.expanded() < budget && b.step() {}
    }

    #[test]
    fn a_build_backs_up_scores_and_resumes_from_its_file() {
        let g = EnglishGame::default();
        let mut b = Builder::new(g, cfg(12), None).expect("two players");
        run(&mut b, 12);
        assert_eq!(b.expanded(), 12);
        let book = b.book();
        let root = book.moves(&g, &g.start());
        assert_eq!(root.len(), 7, "every root move has a record");
        // The best root move's score is minus the best reply's, or its leaf.
        let (mv, r) = root[0];
        let next = g.play(&g.start(), mv);
        if r.flags & LEAF == 0 {
            let reply = book.moves(&g, &next)[0].1;
            assert_eq!(r.score as Score, up(reply.score as Score));
            assert!(r.count >= 1);
        }
        // Resuming from the book gives the same tree and goes on from it.
        let again = Builder::new(g, cfg(12), Some(&book)).expect("same game");
        assert_eq!(again.expanded(), 12);
        assert_eq!(again.searches, 0);
        assert_eq!(again.book(), book);
    }

    #[test]
    fn shards_expand_only_their_root_moves_and_merge() {
        let g = EnglishGame::default();
        let mut parts = Vec::new();
        for k in 1..=2 {
            let mut c = cfg(6);
            c.shard = (k, 2);
            let mut b = Builder::new(g, c, None).expect("two players");
            run(&mut b, 6);
            parts.push(b.book());
        }
        let mut list = MoveList::new();
        g.generate(&g.start(), &mut list);
        for (k, part) in parts.iter().enumerate() {
            for (i, &m) in list.iter().enumerate() {
                let next = g.play(&g.start(), m);
                if i % 2 != k {
                    assert!(part.entries(g.hash(&next)).is_empty());
                }
            }
        }
        let merged = Book::merge(&parts).expect("same game");
        let expanded = merged
            .moves(&g, &g.start())
            .iter()
            .filter(|(_, r)| r.flags & LEAF == 0)
            .count();
        assert!(expanded >= 2, "both shards' root moves are in the merge");
    }
}
