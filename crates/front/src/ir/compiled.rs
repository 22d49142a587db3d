//! [`Compiled`]: what a backend builds from a program once and keeps with it.

/// Code a backend builds from a program once and keeps with it: made on first use, read
/// by every later run. A clone starts without it, so a program changed after it ran
/// must be a clone (as `pack::apply` and codegen's fight copies are).
#[derive(Default)]
pub struct Compiled(std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>);

impl Compiled {
    /// The code, built by `build` the first time. `None` if something else of another
    /// type was kept first.
    pub fn get_or_init<T: std::any::Any + Send + Sync>(
        &self,
        build: impl FnOnce() -> T,
    ) -> Option<&T> {
        self.0.get_or_init(|| Box::new(build())).downcast_ref()
    }
}

impl Clone for Compiled {
    fn clone(&self) -> Self {
        Compiled::default()
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "Compiled(..)"
        } else {
            "Compiled(none)"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Compiled;

    #[test]
    fn built_once_and_not_cloned() {
        let c = Compiled::default();
        assert_eq!(c.get_or_init(|| 1u32), Some(&1));
        // Kept: a second build is never run.
        assert_eq!(c.get_or_init(|| 2u32), Some(&1));
        // Another type than the one kept: none.
        assert_eq!(c.get_or_init(|| 3u64), None);
        // A clone (a program that may then change) starts without it.
        assert_eq!(c.clone().get_or_init(|| 4u32), Some(&4));
        assert_eq!(format!("{:?}", Compiled::default()), "Compiled(none)");
    }
}
