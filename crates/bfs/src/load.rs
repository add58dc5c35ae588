//! Loading a By Fire and Sword scenario: the file (format 2, or format 1 migrated), its army
//! lists, and every check.

use crate::army_list::{ArmyList, load_army_list};
use crate::deploy::deployment_rects;
use crate::options::Options;
use crate::profile::UnitKind;
use crate::scenario_spec::BfsScenario;
use crate::scenario_v1::ScenarioV1;
use sandtable_engine::scenario::{SCENARIO_FORMAT, ScenarioHeader};
use sandtable_engine::scenario_check::{check_footprints, check_structure};
use sandtable_engine::{LoadError, Problem, data_file};
use sandtable_geometry::{Pose, Rect, Vec2};
use std::path::{Path, PathBuf};

/// The identifier scenarios use for this ruleset.
pub const RULESET_ID: &str = "bfs";

/// A scenario that passed every check, with the army lists its sides use.
#[derive(Debug, Clone)]
pub struct LoadedScenario {
    pub path: PathBuf,
    pub scenario: BfsScenario,
    /// One army list per side, in side order.
    pub armies: Vec<ArmyList>,
    pub options: Options,
}

/// Loads `path`, finding army lists in `armies_dir` (files named `<army_list id>.ron`).
pub fn load_scenario(path: &Path, armies_dir: &Path) -> Result<LoadedScenario, LoadError> {
    let text = data_file::read_text(path)?;
    load_scenario_text(path, &text, armies_dir)
}

/// Parses a scenario of either format into the current one, in centimetres.
pub fn parse_scenario(path: &Path, text: &str) -> Result<BfsScenario, LoadError> {
    let header: ScenarioHeader = data_file::parse_ron(path, text)?;
    let scenario = match header.format {
        1 => data_file::parse_ron::<ScenarioV1>(path, text)?.migrate(),
        SCENARIO_FORMAT => data_file::parse_ron::<BfsScenario>(path, text)?,
        other => {
            return Err(LoadError::Semantic {
                file: path.to_path_buf(),
                problems: vec![Problem::new(
                    "format",
                    format!(
                        "this program reads scenario format {SCENARIO_FORMAT} (and 1), the file says {other}"
                    ),
                )],
            });
        }
    };
    Ok(scenario.into_centimetres())
}

/// As [`load_scenario`], for text already read from `path`.
pub fn load_scenario_text(
    path: &Path,
    text: &str,
    armies_dir: &Path,
) -> Result<LoadedScenario, LoadError> {
    let scenario = parse_scenario(path, text)?;
    let mut armies = Vec::new();
    let mut problems = Vec::new();
    for (side, force) in scenario.sides.iter().zip(&scenario.rules.forces) {
        let list_path = armies_dir.join(format!("{}.ron", force.army_list));
        if force.army_list.contains(['/', '\\']) || force.army_list.starts_with('.') {
            problems.push(Problem::new(
                format!("side \"{}\"", side.name),
                format!(
                    "army list name \"{}\" must be a plain name",
                    force.army_list
                ),
            ));
            continue;
        }
        if !list_path.is_file() {
            problems.push(Problem::new(
                format!("side \"{}\"", side.name),
                format!(
                    "army list \"{}\" not found (looked for {})",
                    force.army_list,
                    list_path.display()
                ),
            ));
            continue;
        }
        armies.push(load_army_list(&list_path)?);
    }
    problems.extend(check_scenario(&scenario, &armies));
    let options = match Options::from_scenario(&scenario.options) {
        Ok(o) => o,
        Err(ps) => {
            problems.extend(ps);
            Options::default()
        }
    };
    if problems.is_empty() {
        Ok(LoadedScenario {
            path: path.to_path_buf(),
            scenario,
            armies,
            options,
        })
    } else {
        Err(LoadError::Semantic {
            file: path.to_path_buf(),
            problems,
        })
    }
}

/// Every check of a parsed scenario against its army lists (one per side, in order; a missing
/// list has already been reported and its side's profile checks are skipped).
pub fn check_scenario(s: &BfsScenario, armies: &[ArmyList]) -> Vec<Problem> {
    let mut problems = check_structure(s);
    for (what, sides) in [
        ("pre_battle.march_losses", &s.rules.pre_battle.march_losses),
        ("pre_battle.panic", &s.rules.pre_battle.panic),
        ("pre_battle.chaos", &s.rules.pre_battle.chaos),
        ("pre_battle.confusion", &s.rules.pre_battle.confusion),
        ("pre_battle.enthusiasm", &s.rules.pre_battle.enthusiasm),
        ("pre_battle.fatigue", &s.rules.pre_battle.fatigue),
        ("pre_battle.exhaustion", &s.rules.pre_battle.exhaustion),
        (
            "pre_battle.big_mouthed_prisoner",
            &s.rules.pre_battle.big_mouthed_prisoner,
        ),
        (
            "pre_battle.decisive_moment",
            &s.rules.pre_battle.decisive_moment,
        ),
        (
            "pre_battle.cut_off_retreat",
            &s.rules.pre_battle.cut_off_retreat,
        ),
        (
            "pre_battle.unexpected_reinforcements",
            &s.rules.pre_battle.unexpected_reinforcements,
        ),
    ] {
        if let Some(side) = sides.iter().find(|i| **i >= s.sides.len()) {
            problems.push(Problem::new(
                what,
                format!("names side {side}; sides are counted from 0"),
            ));
        }
    }
    // Only the side with more Reconnaissance Points buys (BFS-SCN-36): Confusion has one buyer.
    if s.rules
        .pre_battle
        .confusion
        .iter()
        .any(|x| Some(x) != s.rules.pre_battle.confusion.first())
    {
        problems.push(Problem::new(
            "pre_battle.confusion",
            "names both sides; only the side with more Reconnaissance Points buys it (BFS-SCN-36)",
        ));
    }
    for u in s.rules.forces.iter().flat_map(|f| &f.units) {
        if u.delayed.is_some() && !u.reserve {
            problems.push(Problem::new(
                format!("unit \"{}\"", u.id),
                "is held back (`delayed`) and so must be in Reserves (`reserve: true`)",
            ));
        }
    }
    if let Some(side) = s.rules.first_initiative
        && side >= s.sides.len()
    {
        problems.push(Problem::new(
            "first_initiative",
            format!("names side {side}; sides are counted from 0"),
        ));
    }
    problems.extend(sandtable_engine::teach::check_names::<crate::Bfs>(
        s.lesson.as_ref(),
        &s.script,
    ));
    if s.ruleset != RULESET_ID {
        problems.push(Problem::new(
            "ruleset",
            format!(
                "\"{}\" is not a ruleset this program plays (it plays \"{RULESET_ID}\")",
                s.ruleset
            ),
        ));
    }
    if armies.len() != s.rules.forces.len() || !problems.is_empty() {
        return problems;
    }
    let mut footprints: Vec<(String, Vec<Rect>)> = Vec::new();
    for (side, army) in s.rules.forces.iter().zip(armies) {
        for c in &side.commanders {
            let who = format!("commander \"{}\"", c.id);
            // Only Regimental commanders hold Instructions, at Division level (BFS-ORD-11).
            if c.instruction.is_some()
                && (s.rules.level != crate::scenario_spec::GameLevel::Division
                    || c.rank != crate::scenario_spec::CommanderRank::Regimental)
            {
                problems.push(Problem::new(
                    who.clone(),
                    "only a Regimental commander at Division level holds an Instruction (BFS-ORD-11)",
                ));
            }
            match army.profile(&c.profile) {
                None => problems.push(Problem::new(
                    who,
                    format!(
                        "unknown profile \"{}\" in army list \"{}\"",
                        c.profile, army.id
                    ),
                )),
                Some(p) if p.kind != UnitKind::Commander => problems.push(Problem::new(
                    who,
                    format!(
                        "profile \"{}\" is a {:?}, not a Commander",
                        c.profile, p.kind
                    ),
                )),
                Some(p) => {
                    let (w, d) = p.base_size();
                    let pose =
                        Pose::from_bearing_deg(Vec2::new(c.position.0, c.position.1), c.facing);
                    footprints.push((who, vec![Rect::new(pose, Vec2::new(w, d) * 0.5)]));
                }
            }
        }
        for u in &side.units {
            let who = format!("unit \"{}\"", u.id);
            match army.profile(&u.profile) {
                None => problems.push(Problem::new(
                    who,
                    format!(
                        "unknown profile \"{}\" in army list \"{}\"",
                        u.profile, army.id
                    ),
                )),
                Some(p) if p.kind == UnitKind::Commander => problems.push(Problem::new(
                    who,
                    format!(
                        "profile \"{}\" is a Commander; list commanders under `commanders`",
                        u.profile
                    ),
                )),
                // A garrison stands in its building, not at its position (BFS-TER-29).
                Some(_) if u.garrison.is_some() => {}
                Some(p) => {
                    let rects = deployment_rects(
                        u.formation,
                        u.bases,
                        p.base_size(),
                        Vec2::new(u.position.0, u.position.1),
                        u.facing,
                    );
                    footprints.push((who, rects));
                }
            }
        }
    }
    problems.extend(check_footprints(
        (s.table.width, s.table.depth),
        &footprints,
    ));
    for (force, army) in s.rules.forces.iter().zip(armies) {
        problems.extend(crate::squadron::problems(force, army));
        problems.extend(crate::artillery::crew_problems(force, army));
        problems.extend(crate::wagon::train::organisation_problems(
            force,
            army,
            s.rules.level,
        ));
    }
    problems
}
