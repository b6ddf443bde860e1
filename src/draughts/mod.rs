//! The draughts family: one generic move generator driven by a `Rules` trait
//! of constants and a board `Geometry` (international, brazilian, english,
//! spanish, turkish, hex).
