//! Chinese checkers on the 121-hole star, for 2, 3, 4 or 6 players.
