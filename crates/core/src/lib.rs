//! `rulesc-core`: a checked program lowered once to the core IR ([`core_ir`]), the one VM
//! that runs it, the interpreter's values and entry points ([`eval`]) and the fight rules
//! the runtime's fight engine calls ([`fight`]).

pub mod core_ir;
pub mod eval;
pub mod fight;

use rulesc_front::{diag, ir, load, source};
use std::path::Path;

/// Loads and checks a ruleset folder for running ([`rulesc_front::compile_dir`]), with
/// the VM's last check: E0363, a function needing more numbers at once than a frame
/// holds ([`core_ir::check_room`]). The program if there is no error.
pub fn compile_dir(dir: &Path) -> (Option<ir::Program>, diag::Diagnostics, source::Sources) {
    let (program, mut diags, sources) = rulesc_front::compile_dir(dir);
    (fits(program, &mut diags), diags, sources)
}

/// [`rulesc_front::check_dir`] (unsaved editor text, the index) with the VM's last check,
/// as [`compile_dir`].
pub fn check_dir(dir: &Path, overlay: &load::Overlay) -> rulesc_front::Checked {
    let mut checked = rulesc_front::check_dir(dir, overlay);
    checked.program = fits(checked.program.take(), &mut checked.diags);
    checked
}

/// `program` if each of its functions fits a frame of the VM, else E0363 for each that
/// does not. Lowered here, the module is kept with the program: a run lowers nothing again.
fn fits(program: Option<ir::Program>, diags: &mut diag::Diagnostics) -> Option<ir::Program> {
    let p = program?;
    core_ir::check_room(&p, diags);
    (!diags.has_errors()).then_some(p)
}
