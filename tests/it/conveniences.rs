//! `woundsim show`, `woundsim completions` and `woundsim man`: what a
//! `cargo install` user has instead of the repository.

use crate::common;

use common::cli::{stdout, woundsim};
use predicates::prelude::*;

#[test]
fn show_prints_a_builtin_scenario_as_shipped() {
    let text = stdout(&["show", "death-saves"]);
    let shipped =
        std::fs::read_to_string(common::cli::fixture("scenarios/death-saves.toml")).unwrap();
    assert_eq!(text, shipped);
}

#[test]
fn show_prints_a_monster_and_a_template_as_the_round_loop_sees_them() {
    let ogre = stdout(&["show", "ogre"]);
    assert!(ogre.starts_with("ogre (monster, Large)\n"), "{ogre}");
    assert!(
        ogre.contains("  Hit points 59\n") && ogre.contains("  Armour class 11\n"),
        "{ogre}"
    );
    assert!(
        ogre.contains("greatclub: +6 to hit, 2d8+4 bludgeoning, two-handed"),
        "{ogre}"
    );
    let fighter = stdout(&["show", "fighter-7"]);
    assert!(
        fighter.starts_with("fighter-7 (PC, level 7, Medium)\n"),
        "{fighter}"
    );
    // Extra Attack at 5 and the Champion's Improved Critical at 3.
    assert!(
        fighter.contains("Attack action: longsword, longsword"),
        "{fighter}"
    );
    assert!(fighter.contains("critical hit on 19-20"), "{fighter}");
    assert!(
        fighter.contains("Heals itself for 1d10+7 (bonus action, 1 use)"),
        "{fighter}"
    );
    let dragon = stdout(&["show", "young_red_dragon"]);
    assert!(
        dragon.contains("Immunities: fire") && dragon.contains("Breath: 16d6 fire"),
        "{dragon}"
    );
}

#[test]
fn show_of_an_unknown_name_suggests_the_nearest_and_exits_2() {
    woundsim()
        .args(["show", "figter-7"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("did you mean `fighter-7`?"))
        .stderr(predicate::str::contains("monsters: 343 of them"))
        .stderr(predicate::str::contains("SRD 5.1 names bugbear, gnoll"));
    woundsim()
        .args(["show", "zzzzzz"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean").not());
}

#[test]
fn completions_cover_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&["completions", shell]);
        for sub in ["run", "exact", "check", "merge", "show", "list"] {
            assert!(script.contains(sub), "{shell}: {sub}");
        }
    }
    woundsim().args(["completions", "tcsh"]).assert().code(2);
}

#[test]
fn the_man_page_is_roff_naming_every_subcommand() {
    let page = stdout(&["man"]);
    assert!(page.contains(".TH woundsim 1"), "{page}");
    for sub in ["run", "exact", "check", "merge", "show", "completions"] {
        assert!(page.contains(sub), "{sub}");
    }
}

#[test]
fn a_near_miss_of_a_builtin_scenario_name_is_suggested() {
    woundsim()
        .args(["run", "death-save", "-q"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean `death-saves`?"));
    woundsim()
        .args(["run", "no-such-thing-at-all", "-q"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean").not());
}
