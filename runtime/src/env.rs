//! What a resolution runs with: its dice, its decider and its trace sink. Generated
//! procedures and the interpreter take one `&mut Env`.

use crate::decide::Decide;
use crate::dice::DiceSource;
use crate::trace::TraceSink;

pub struct Env<D, X, T> {
    pub dice: D,
    pub decide: X,
    pub trace: T,
}

impl<D: DiceSource, X: Decide, T: TraceSink> Env<D, X, T> {
    pub fn new(dice: D, decide: X, trace: T) -> Self {
        Env {
            dice,
            decide,
            trace,
        }
    }
}
