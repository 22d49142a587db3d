//! The command line's shape (clap): the global flags, every command and its arguments.

use clap::{Parser, Subcommand, ValueEnum};
use rulesc::analyze::Limits;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "rulesc",
    version,
    about = "Check, compile and run tabletop combat rulesets"
)]
pub struct Cli {
    /// Output: text, or JSON (one object per line: diagnostics on standard error, what the
    /// command prints on standard output); `csv` for the tables of `analyze` and `diff`.
    #[arg(long, value_enum, default_value = "text", global = true)]
    pub format: Format,
    /// When to colour diagnostics: `auto` colours a terminal, unless `NO_COLOR` is set or
    /// `TERM=dumb`; `CLICOLOR_FORCE=1` colours even a pipe.
    #[arg(
        long,
        value_enum,
        default_value = "auto",
        global = true,
        value_name = "WHEN"
    )]
    pub color: Color,
    /// The project folder: what `extends` and links in ruleset folders may reach
    /// (default: the nearest folder above the ruleset with `Cargo.toml`, `.git` or
    /// `rulesc.toml`, else the ruleset's parent folder).
    #[arg(long, global = true, value_name = "FOLDER")]
    pub root: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// Text for people (the default; `human` is its older name).
    #[value(name = "text", alias = "human")]
    Human,
    Json,
    /// Tables as CSV (`analyze`, `diff`; diagnostics print as `text`).
    Csv,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check a ruleset folder and report every problem; with `--ruleset`, check content
    /// packs against that ruleset instead.
    Check {
        /// The ruleset folder (holds ruleset.yaml), or with `--ruleset` the packs.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The ruleset the content packs are checked against.
        #[arg(long)]
        ruleset: Option<PathBuf>,
        /// Check the packs for a game already compiled from the ruleset without them:
        /// only records, which a game reads as data; a pack that adds to or changes the
        /// ruleset's enums, scales, tables or records (compiled into the game's code)
        /// is refused (E0416).
        #[arg(long, requires = "ruleset")]
        compiled: bool,
        /// Check again after each change to the files read (a burst of saves is one
        /// change), clearing the screen first in a terminal, until Ctrl-C.
        #[arg(long)]
        watch: bool,
    },
    /// Compile a ruleset folder (and content packs) to a Rust module.
    Build {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// The Rust file to write (written only when its content changes).
        #[arg(short, long)]
        output: PathBuf,
        /// Content packs whose records are compiled in as the ruleset's own.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
    },
    /// Check and compile every ruleset folder in a directory (one line each), and
    /// optionally trace scenarios: `examples/<ruleset name>/<scenario>.yaml`.
    All {
        /// The directory holding one folder per ruleset.
        rules: PathBuf,
        /// Where the generated Rust goes (`<out>/<name>.rs`).
        #[arg(long, default_value = "target/rulesc")]
        out: PathBuf,
        /// Scenarios to trace; each runs against the ruleset its folder is named after.
        #[arg(long)]
        trace: Vec<PathBuf>,
    },
    /// Show a definition after `extends` and `override` are merged, and where each part
    /// came from.
    Explain {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// A table, record, constant, formula, procedure, type, scale or enum.
        name: String,
        /// Content packs: a record one of them adds is explained from the pack.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
    },
    /// The merged ruleset (after `extends`, `override` and content packs) as JSON, for
    /// virtual tabletops and other tools that want the data; its shape is
    /// `schemas/export.schema.json`. Diagnostics print as `--format` says.
    Export {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// Content packs whose records are exported as the ruleset's own.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
        /// Write to this file (only when its content changes) instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Write the JSON Schemas (draft-07) of ruleset files, content packs, scenarios and
    /// fight files, for editors (yaml-language-server), and of the JSON of `export`,
    /// `analyze`, `diff` and `simulate`.
    Schema {
        /// The folder to write them to.
        #[arg(long, default_value = "schemas")]
        out: PathBuf,
    },
    /// The exact odds of a scenario's outcomes: every path of its dice, decisions as
    /// scripted; grouped (`--by`), per answer to decisions (`--decide`, `--best`), over
    /// sweeps (`--sweep`) and several scenarios as one table, or sampled (`--samples`).
    /// `--format json` and `--format csv` write the table for other tools. Of a fight file
    /// (`fight.yaml`): each side's chance to win, the draw, undecided, the rounds and the
    /// report groups, exactly.
    Analyze {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// The scenario files, or fight files (several: one table).
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
        /// Content packs whose records the scenarios may name.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
        #[command(flatten)]
        limits: AnalyzeLimits,
        #[command(flatten)]
        view: AnalyzeView,
    },
    /// What a variant changes: the definitions that differ from its base (as `explain`
    /// shows them), and the odds of a scenario's outcomes under both, with the change in
    /// percentage points.
    Diff(DiffArgs),
    /// Run a whole fight (`fight.yaml`: sides, round limit, decision policies, report
    /// groups) many times with the interpreter: win rates with 95% intervals, the
    /// distribution of rounds, the report's groups. The same numbers for the same seed,
    /// whatever the number of threads.
    Simulate {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// The fight file.
        fight: PathBuf,
        /// How many fights to run (1 to 10,000,000).
        #[arg(short = 'n', long = "runs", default_value_t = 10_000,
              value_parser = clap::value_parser!(u64).range(1..=rulesc::simulate::MAX_RUNS))]
        runs: u64,
        /// Seed of the whole simulation (run k's dice and random answers derive from it).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print the trace of run N (0-based) instead of the totals.
        #[arg(long, value_name = "N")]
        trace: Option<u64>,
        /// With --trace: trace inside formulas too (as `rulesc trace --trace-formulas`).
        #[arg(long, requires = "trace")]
        trace_formulas: bool,
        /// Most seconds of wall-clock time: the runs made by then are reported, with a
        /// warning (W0105), so a fight whose runs are slow cannot hold the command for hours.
        #[arg(long, default_value_t = Limits::default().max_seconds, value_parser = limit("max-seconds"))]
        max_seconds: u64,
        /// Content packs whose records the fight file may name.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
        /// Also draw the win rates (with their 95% intervals) and the rounds played to
        /// this SVG file.
        #[arg(long, value_name = "FILE", conflicts_with = "trace")]
        svg: Option<PathBuf>,
        /// Simulate the fight once per value of a combatant's field, as one table:
        /// `Vera.armor=0..4` (both ends included) or `Vera.stance=Open,Closed`.
        /// Repeatable: every combination.
        #[arg(long, value_name = "NAME.FIELD=VALUES", conflicts_with_all = ["trace", "svg"],
              value_parser = rulesc::analyze::cases::parse_sweep)]
        sweep: Vec<rulesc::analyze::cases::Sweep>,
    },
    /// Render the ruleset as a static, offline HTML rulebook: a page per kind of
    /// definition in the writer's order, the rules highlighted and linked, the exact odds
    /// of every example scenario and the win rates of every fight file; a page per
    /// content pack and per variant (with what it changes). Deterministic: the same input
    /// gives the same bytes.
    Book {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// The book's folder: new, empty, or one a previous `rulesc book` wrote (it holds
        /// `.rulesc-book`); anything else is refused.
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Content packs: checked against the ruleset, a page each; the examples may
        /// name their records.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
        /// Variant rulesets: their own pages, and what each changes against this one.
        #[arg(long = "variant", value_name = "DIR", num_args = 1..)]
        variants: Vec<PathBuf>,
        /// The folder of scenarios and fight files (default: `examples/<ruleset folder>`
        /// in the nearest folder above the ruleset that has one).
        #[arg(long, value_name = "DIR")]
        examples: Option<PathBuf>,
    },
    /// Serve a local web app to edit, check and run the ruleset in a browser: its files
    /// with line numbers, diagnostics as you type (with did-you-mean fixes), the traces,
    /// exact odds and simulations of its examples, and saves that refuse to overwrite a
    /// file changed on disk. Listens on 127.0.0.1 only; open the address it prints, which
    /// holds this run's token.
    Studio {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// The folder of scenarios and fight files to run (default: `examples/<ruleset
        /// folder>` in the nearest folder above the ruleset that has one); inside the
        /// project folder.
        #[arg(long, value_name = "DIR")]
        examples: Option<PathBuf>,
        /// Variant rulesets to compare the odds with, as `rulesc diff` does; inside the
        /// project folder.
        #[arg(long = "variant", value_name = "DIR", num_args = 1..)]
        variants: Vec<PathBuf>,
        /// The port to listen on (0: any free port).
        #[arg(long, default_value_t = 0)]
        port: u16,
    },
    /// Resolve a scenario with the interpreter and print its trace.
    Trace {
        /// The ruleset folder (the one holding ruleset.yaml).
        #[arg(value_name = "RULESET")]
        ruleset: PathBuf,
        /// The scenario file: the procedure to run, its arguments, optional dice.
        scenario: PathBuf,
        /// Seed for dice the scenario does not script.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Content packs whose records the scenario may name.
        #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
        packs: Vec<PathBuf>,
        /// Refuse a script that does not fit the run (faces never rolled, dice rolled past
        /// the script, answers never asked), as `rulesc test` does.
        #[arg(long)]
        strict: bool,
        /// Trace inside formulas too: each formula called, its arguments, its `if`
        /// conditions, its table lookups and its result (the interpreter's own trace:
        /// generated code traces no formula).
        #[arg(long)]
        trace_formulas: bool,
    },
    /// Run every scenario under the folders with strict scripts and hold each to its
    /// `expect:`: one line per scenario, expected against actual with the trace around
    /// the first difference on a failure; exit 1 if any failed.
    Test {
        /// Folders of scenarios (searched in name order), or scenario files.
        #[arg(required = true, value_name = "DIR")]
        paths: Vec<PathBuf>,
        /// The ruleset of scenarios that do not name one with `ruleset:`.
        #[arg(long, value_name = "RULESET")]
        ruleset: Option<PathBuf>,
        /// Rewrite the expectations that do not hold with what the run gave (keeping the
        /// rest of the file), and record them in scenarios that expect nothing.
        #[arg(long)]
        update: bool,
        /// Test again after each change to the files read and the folders named (a
        /// burst of saves is one change), clearing the screen first in a terminal,
        /// until Ctrl-C.
        #[arg(long, conflicts_with = "update")]
        watch: bool,
    },
    /// Lay out `.rules` files: indentation by block, one space around operators, no
    /// trailing whitespace, at most one blank line; lines are never joined or split and
    /// comments are kept. Files that change are rewritten; YAML files are left alone.
    Fmt {
        /// `.rules` files, or folders searched (recursively) for them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Change nothing: print each file that would change (its first differing line)
        /// and exit 1 if any would.
        #[arg(long)]
        check: bool,
    },
    /// Print a shell completion script, for example
    /// `rulesc completions bash > ~/.local/share/bash-completion/completions/rulesc`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), for example `rulesc man > ~/.local/share/man/man1/rulesc.1`;
    /// with `--out`, write it and one page per command (`rulesc-check.1`, ...) to a folder.
    Man {
        /// The folder to write every page to.
        #[arg(long, value_name = "FOLDER")]
        out: Option<PathBuf>,
    },
    /// Run the language server on stdin and stdout, for editors (diagnostics as you
    /// type, hover, go to definition, completion, rename).
    Lsp,
}

/// The arguments of `rulesc diff`.
#[derive(clap::Args)]
pub struct DiffArgs {
    /// The base ruleset folder.
    pub base: PathBuf,
    /// The variant ruleset folder.
    pub variant: PathBuf,
    /// The scenario, read against both; or a fight file (`sides:`), simulated under both.
    pub scenario: PathBuf,
    /// Content packs applied to both (a pack for the base fits its variants), whose
    /// records the scenario may name.
    #[arg(long = "pack", value_name = "PACK.yaml", num_args = 1..)]
    pub packs: Vec<PathBuf>,
    #[command(flatten)]
    pub limits: AnalyzeLimits,
    /// Group the outcomes by a field of the result (`level`), `tag` or `value`.
    #[arg(long, value_name = "PATH")]
    pub by: Option<String>,
    /// Write the odds under both as paired bars to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// With a fight file: how many fights to run under each ruleset (1 to 10,000,000).
    #[arg(short = 'n', long = "runs", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=rulesc::simulate::MAX_RUNS))]
    pub runs: u64,
    /// With a fight file: the seed of both simulations (run k rolls alike under both).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// The engine and bounds of `rulesc analyze`; a value outside its range is a usage error
/// (exit 2).
#[derive(clap::Args)]
pub struct AnalyzeLimits {
    /// The engine: `merged` merges equal program states after each roll (cost grows with
    /// distinct states); `paths` walks every dice path (the reference).
    #[arg(long, value_enum, default_value = "merged")]
    pub engine: EngineArg,
    /// Most dice on one path (1 to 1000): a path needing more is cut and reported as
    /// unexplored. The path walker uses 12 unless given; the merged engine counts dice
    /// per path only when given (then both engines give the same figures).
    #[arg(long, value_parser = limit("max-dice"))]
    pub max_dice: Option<u64>,
    /// Most explosions of one exploding die in the merged engine (0 to 100; 100, the
    /// language's own cap, cuts nothing): the rest of the chain is unexplored.
    #[arg(long, default_value_t = Limits::default().explode_depth, value_parser = limit("explode-depth"))]
    pub explode_depth: u64,
    /// Most paths walked by `--engine paths` (W0101 says when it was reached).
    #[arg(long, default_value_t = Limits::default().max_paths, value_parser = limit("max-paths"))]
    pub max_paths: u64,
    /// Most steps, statements run and dice drawn over the whole analysis (W0102).
    #[arg(long, default_value_t = Limits::default().max_steps, value_parser = limit("max-steps"))]
    pub max_steps: u64,
    /// Most seconds of wall-clock time for the whole run: every case, scenario and
    /// sample together (W0103; what was not reached by then is reported unexplored,
    /// sampled odds come from the samples drawn).
    #[arg(long, default_value_t = Limits::default().max_seconds, value_parser = limit("max-seconds"))]
    pub max_seconds: u64,
    /// Most program states the merged engine holds at once, and most distinct totals of
    /// one roll (W0104).
    #[arg(long, default_value_t = Limits::default().max_states, value_parser = limit("max-states"))]
    pub max_states: u64,
    /// Most memory, in MiB, the program states the merged engine holds at once may take,
    /// estimated from their size (W0104).
    #[arg(long, value_name = "MIB", default_value_t = Limits::default().max_memory, value_parser = limit("max-memory"))]
    pub max_memory: u64,
}

/// How `rulesc analyze` shows the odds.
#[derive(clap::Args)]
pub struct AnalyzeView {
    /// Group the outcomes by a field of the result (`level`, `attacker.wounds`), `tag`
    /// or `value`, in the field's order; numbers and levels add at-least and at-most
    /// columns, numbers the mean and standard deviation.
    #[arg(long, value_name = "PATH")]
    pub by: Option<String>,
    /// Analyze every answer to this decision (repeatable: every combination).
    #[arg(long, value_name = "NAME")]
    pub decide: Vec<String>,
    /// The chance of this goal under every answer to the decisions (`--decide`, or every
    /// decision the procedure reaches), the best marked: `--best "level >= Severe"`.
    #[arg(long, value_name = "GOAL")]
    pub best: Option<String>,
    /// Analyze the scenario with a value under `args:` set to each of these in turn:
    /// `attacker.skills.ArmedCombat=0..6` (both ends included) or `weapon=a,b,c`.
    /// Repeatable: every combination, analyzed in parallel, as one table.
    #[arg(long, value_name = "PATH=VALUES", value_parser = rulesc::analyze::cases::parse_sweep)]
    pub sweep: Vec<rulesc::analyze::cases::Sweep>,
    /// Estimate the odds from this many seeded random runs instead (95% intervals), for
    /// procedures too large for the exact engine (1 to 1,000,000,000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=rulesc::analyze::sample::MAX_SAMPLES))]
    pub samples: Option<u64>,
    /// The seed of `--samples`: the same figures for the same seed, whatever the number
    /// of threads.
    #[arg(long, default_value_t = 0, requires = "samples")]
    pub seed: u64,
    /// Write a bar chart of the odds (one bar per group) to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum EngineArg {
    Merged,
    Paths,
}

impl From<AnalyzeLimits> for Limits {
    fn from(a: AnalyzeLimits) -> Limits {
        Limits {
            engine: match a.engine {
                EngineArg::Merged => rulesc::analyze::EngineKind::Merged,
                EngineArg::Paths => rulesc::analyze::EngineKind::Paths,
            },
            max_dice: a.max_dice,
            explode_depth: a.explode_depth,
            max_paths: a.max_paths,
            max_steps: a.max_steps,
            max_seconds: a.max_seconds,
            max_states: a.max_states,
            max_memory: a.max_memory,
            ..Limits::default()
        }
    }
}

/// The parser of a limit flag: an integer within the range `rulesc::analyze::RANGES`
/// gives it.
fn limit(flag: &str) -> clap::builder::RangedU64ValueParser<u64> {
    let (_, lo, hi) = rulesc::analyze::RANGES
        .into_iter()
        .find(|(f, _, _)| *f == flag)
        .unwrap_or((flag, 1, u64::MAX));
    clap::value_parser!(u64).range(lo..=hi)
}
