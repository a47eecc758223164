//! The limits every scenario input is held to, in one place (README,
//! "Limits", lists the same). Numeric settings have their ranges where they
//! are validated; these are the limits on sizes: the file, names and
//! texts, and lists whose length multiplies memory or work.
//!
//! Each limit is far above what a shipped scenario or the SRD needs, and
//! low enough that no accepted file can exhaust the machine or make a
//! report unreadable: names fit a chart legend and a file name, variants
//! fit a chart, lists stay small enough for the loops that walk them.

/// Largest scenario file read, in bytes (the shipped ones are under 4 KiB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Longest scenario or variant name, in characters. A scenario name names
/// a folder, so with [`MAX_REPORT_FILE_NAME`] it must fit a 255-byte file
/// name; a variant name is a chart legend entry and a table column.
pub const MAX_NAME_CHARS: usize = 64;

/// Longest name of a creature, an attack, an injury-table entry (its `id`
/// and `name`), a cutter, an armor piece or a healing supply, in characters.
pub const MAX_LABEL_CHARS: usize = 64;

/// Longest `description`, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;

/// Most variants in one scenario: every chart draws one series per variant,
/// in distinguishable colours, with a legend that fits the canvas.
pub const MAX_VARIANTS: usize = 32;

/// Most entries in an injury table (`table`) or in `override`: the ranges
/// cover the d100 exactly once, so a table has at most 100 entries.
pub const MAX_TABLE_ENTRIES: usize = 100;

/// Most effects, and most cures, of one injury-table entry.
pub const MAX_ENTRY_TAGS: usize = 16;

/// Most attacks a combat creature lists, and most attacks in its
/// multiattack (the SRD's largest multiattack has five).
pub const MAX_CREATURE_ATTACKS: usize = 20;

/// Most files a scenario's `bestiary = [...]` names (each held to
/// [`MAX_FILE_BYTES`]).
pub const MAX_BESTIARY_FILES: usize = 16;

/// Most monsters a combat scenario's `monster_pool` names.
pub const MAX_MONSTER_POOL: usize = 32;

/// The largest XP budget a combat scenario's `difficulty` may give.
pub const MAX_XP_BUDGET: i64 = 1_000_000;

/// Most armor pieces of an amputation scenario's creature.
pub const MAX_ARMOR_PIECES: usize = 16;

/// Longest file name a scenario folder receives (`<chart>.png`,
/// `<distribution>.csv`), in bytes; a test holds every report to it.
pub const MAX_REPORT_FILE_NAME: usize = 64;

/// The longest file name the file systems we write to allow, in bytes.
pub const NAME_MAX: usize = 255;

/// The longest path the operating system accepts, in bytes (without the
/// terminating NUL).
pub const PATH_MAX: usize = if cfg!(target_os = "macos") {
    1023
} else {
    4095
};

// A scenario folder and the files in it always fit a file name.
const _: () = assert!(MAX_NAME_CHARS <= NAME_MAX && MAX_REPORT_FILE_NAME <= NAME_MAX);

/// Most errors one file reports (`woundsim validate` lists them all); a
/// file with more has its first this many shown.
pub const MAX_ERRORS_PER_FILE: usize = 50;

/// Most times one file is read again to step over its errors (each error
/// may take a few readings to find the lines of the bad setting), so that
/// reporting every error of a large file stays within a second or so.
pub const MAX_REREADS_PER_FILE: usize = 400;
