//! Finishing places and points per place, for games of any number of
//! players.
//!
//! Every finished game gives each seat a place (0 = first), the standard
//! competition ranking ("1224"): a seat's place is the number of seats that
//! finished strictly ahead of it, so tied seats share a place. The order
//! is: the winner by the rules (or by an opponent's failure in a
//! two-player game), then the players still in the race, closer to winning
//! first ([`crate::Game::distance_to_win`]; all tied when the game has no
//! such measure), then a player whose failure ended the game.
//!
//! A [`PointsScheme`] turns places into points: tied seats share the points
//! of the places they span.

/// Where a seat stood when the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Won (by the rules, an opponent's failure, adjudication).
    Winner,
    /// Still racing: its distance to winning, if the game measures one.
    Racing(Option<u32>),
    /// Its failure (illegal move, crash, flag, ...) or having no legal move
    /// ended the game.
    Failed,
}

impl Standing {
    fn key(self) -> (u8, u32) {
        match self {
            Standing::Winner => (0, 0),
            Standing::Racing(d) => (1, d.unwrap_or(0)),
            Standing::Failed => (2, 0),
        }
    }
}

/// The place (0 = first) of each seat: the number of seats strictly ahead.
pub fn places(standings: &[Standing]) -> Vec<usize> {
    standings
        .iter()
        .map(|s| standings.iter().filter(|o| o.key() < s.key()).count())
        .collect()
}

/// Points for each place, first place first.
#[derive(Clone, Debug, PartialEq)]
pub struct PointsScheme(pub Vec<f64>);

impl PointsScheme {
    /// The default: 1 for first, 0 for last, evenly spaced between
    /// (`(n-1-place)/(n-1)`): a seat's points are the fraction of the
    /// other players it finished ahead of (ties count half). With two
    /// players: 1 a win, 1/2 a draw, 0 a loss.
    pub fn linear(players: usize) -> Self {
        let n = players.max(2);
        PointsScheme(
            (0..players)
                .map(|p| (n - 1 - p) as f64 / (n - 1) as f64)
                .collect(),
        )
    }

    /// Parses `linear`, `win` (1 for first, 0 for every other place) or a
    /// comma-separated list of one number per place, first place first
    /// (`3,1,0`). The list must not increase.
    pub fn parse(text: &str, players: usize) -> Result<Self, String> {
        let t = text.trim();
        match t {
            "linear" => return Ok(PointsScheme::linear(players)),
            "win" => {
                return Ok(PointsScheme(
                    (0..players)
                        .map(|p| if p == 0 { 1.0 } else { 0.0 })
                        .collect(),
                ));
            }
            _ => {}
        }
        let pts = t
            .split(',')
            .map(|x| {
                x.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("--points: '{}' is not a number", x.trim()))
            })
            .collect::<Result<Vec<f64>, String>>()?;
        if pts.len() != players {
            return Err(format!(
                "--points: {players} players need {players} numbers (one per place, first place first), got {}",
                pts.len()
            ));
        }
        if pts.windows(2).any(|w| w[1] > w[0]) {
            return Err(format!(
                "--points: '{t}' gives a lower place more points than a higher one"
            ));
        }
        Ok(PointsScheme(pts))
    }

    /// The points of each seat for these places: tied seats share the
    /// points of the places they span (two seats tied for first in a
    /// 3-player game with `1,0.5,0` get 0.75 each).
    pub fn points(&self, places: &[usize]) -> Vec<f64> {
        places
            .iter()
            .map(|&p| {
                let tied = places.iter().filter(|&&q| q == p).count();
                let span = &self.0[p.min(self.0.len())..(p + tied).min(self.0.len())];
                if span.is_empty() {
                    0.0
                } else {
                    span.iter().sum::<f64>() / span.len() as f64
                }
            })
            .collect()
    }

    /// The most points a seat can get.
    pub fn best(&self) -> f64 {
        self.0.first().copied().unwrap_or(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_put_the_winner_first_then_by_distance_then_failures() {
        use Standing::*;
        assert_eq!(
            places(&[Racing(Some(30)), Winner, Racing(Some(12))]),
            vec![2, 0, 1]
        );
        // Equal distances share a place; the next place is skipped.
        assert_eq!(
            places(&[Racing(Some(5)), Racing(Some(5)), Racing(Some(9)), Failed]),
            vec![0, 0, 2, 3]
        );
        // Without a distance everyone still racing is tied.
        assert_eq!(places(&[Racing(None), Racing(None)]), vec![0, 0]);
        assert_eq!(places(&[Failed, Racing(None), Racing(None)]), vec![2, 0, 0]);
    }

    #[test]
    fn linear_points_are_the_fraction_of_opponents_beaten() {
        assert_eq!(PointsScheme::linear(2).0, vec![1.0, 0.0]);
        assert_eq!(PointsScheme::linear(3).0, vec![1.0, 0.5, 0.0]);
        assert_eq!(PointsScheme::linear(6).points(&[0, 1, 2, 3, 4, 5])[1], 0.8);
        // A two-player draw is half a point each.
        assert_eq!(PointsScheme::linear(2).points(&[0, 0]), vec![0.5, 0.5]);
    }

    #[test]
    fn tied_seats_share_the_points_of_their_places() {
        let s = PointsScheme::parse("3,1,0", 3).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.points(&[1, 0, 1]), vec![0.5, 3.0, 0.5]);
        assert_eq!(s.points(&[0, 0, 0]), vec![4.0 / 3.0; 3]);
        assert_eq!(s.points(&[0, 0, 2]), vec![2.0, 2.0, 0.0]);
    }

    #[test]
    fn points_option_rejects_bad_lists() {
        assert_eq!(
            PointsScheme::parse("win", 4).map(|s| s.0),
            Ok(vec![1.0, 0.0, 0.0, 0.0])
        );
        assert!(PointsScheme::parse("3,1", 3).is_err());
        assert!(PointsScheme::parse("3,x,0", 3).is_err());
        assert!(PointsScheme::parse("0,1,3", 3).is_err());
        assert!(PointsScheme::parse("nan,0,0", 3).is_err());
    }
}
