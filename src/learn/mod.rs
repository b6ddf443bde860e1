//! Learning the pattern evaluation from self-play: the data format
//! ([`data`]), the self-play generator ([`datagen`]) and the trainer
//! ([`train`]). docs/training.md describes them and the rounds run.

pub mod chinese;
pub mod data;
pub mod datagen;
pub mod train;

/// The indices in `known` of `names` (for `--freeze`); an error names the
/// first unknown one and lists `known`, called `what`.
pub fn name_indices(names: &[String], known: &[&str], what: &str) -> Result<Vec<usize>, String> {
    names
        .iter()
        .map(|name| {
            known.iter().position(|n| n == name).ok_or_else(|| {
                format!(
                    "--freeze: no {what} named '{name}' (the {what}s: {})",
                    known.join(", ")
                )
            })
        })
        .collect()
}
