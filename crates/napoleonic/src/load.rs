//! Loading a Napoleonic scenario: the file, the force files it names, and every check, with
//! errors naming the file and line (syntax) or the entity (meaning).

use crate::force::{ForceList, load_force};
use crate::options::Options;
use crate::scenario_spec::NapScenario;
use sandtable_engine::scenario::{SCENARIO_FORMAT, ScenarioHeader};
use sandtable_engine::scenario_check::{check_footprints, check_structure};
use sandtable_engine::scenario_script::{ScriptAction, Trigger};
use sandtable_engine::{LoadError, Problem, data_file};
use std::path::Path;

/// The identifier scenarios and saves use for this ruleset.
pub const RULESET_ID: &str = "napoleonic";

/// Parses a scenario into centimetres.
pub fn parse_scenario(path: &Path, text: &str) -> Result<NapScenario, LoadError> {
    let header: ScenarioHeader = data_file::parse_ron(path, text)?;
    if header.format != SCENARIO_FORMAT {
        return Err(LoadError::Semantic {
            file: path.to_path_buf(),
            problems: vec![Problem::new(
                "format",
                format!(
                    "this ruleset reads scenario format {SCENARIO_FORMAT}, the file says {}",
                    header.format
                ),
            )],
        });
    }
    Ok(data_file::parse_ron::<NapScenario>(path, text)?.into_centimetres())
}

/// Reads the scenario in `text` and the force files in `armies`, and checks them all.
pub fn load_scenario_text(
    path: &Path,
    text: &str,
    armies: &Path,
) -> Result<(NapScenario, Vec<ForceList>), LoadError> {
    let scenario = parse_scenario(path, text)?;
    let mut forces = Vec::new();
    let mut problems = Vec::new();
    for (i, f) in scenario.rules.forces.iter().enumerate() {
        if f.list.contains(['/', '\\']) || f.list.starts_with('.') || f.list.is_empty() {
            problems.push(Problem::new(
                format!("side #{}", i + 1),
                format!("force list name \"{}\" must be a plain name", f.list),
            ));
            continue;
        }
        let file = armies.join(format!("{}.ron", f.list));
        if !file.is_file() {
            problems.push(Problem::new(
                format!("side #{}", i + 1),
                format!(
                    "force list \"{}\" not found (looked for {})",
                    f.list,
                    file.display()
                ),
            ));
            continue;
        }
        forces.push(load_force(&file)?);
    }
    problems.extend(check_scenario(&scenario, &forces));
    if problems.is_empty() {
        Ok((scenario, forces))
    } else {
        Err(LoadError::Semantic {
            file: path.to_path_buf(),
            problems,
        })
    }
}

/// Every check of a parsed scenario against its forces (one per side, in order).
pub fn check_scenario(s: &NapScenario, forces: &[ForceList]) -> Vec<Problem> {
    let mut problems = check_structure(s);
    problems.extend(sandtable_engine::teach::check_names::<crate::Napoleonic>(
        s.lesson.as_ref(),
        &s.script,
    ));
    if s.ruleset != RULESET_ID {
        problems.push(Problem::new(
            "ruleset",
            format!("\"{}\" is not this ruleset (\"{RULESET_ID}\")", s.ruleset),
        ));
    }
    if !s.objectives.is_empty() {
        problems.push(Problem::new(
            "objectives",
            "this ruleset does not play objectives yet (G15: victory is by losses)",
        ));
    }
    for (i, r) in s.script.iter().enumerate() {
        let who = format!("script rule #{}", i + 1);
        if matches!(r.when, Trigger::ObjectiveTaken { .. }) {
            problems.push(Problem::new(who.clone(), "this ruleset has no objectives"));
        }
        if r.then
            .iter()
            .any(|a| matches!(a, ScriptAction::Reserves(_)))
        {
            problems.push(Problem::new(who, "this ruleset brings on no reserves"));
        }
    }
    if let Err(ps) = Options::from_scenario(&s.options) {
        problems.extend(ps);
    }
    if forces.len() != s.rules.forces.len() || !problems.is_empty() {
        return problems;
    }
    let mut footprints = Vec::new();
    for (force, list) in s.rules.forces.iter().zip(forces) {
        for b in &force.brigades {
            for u in &b.units {
                let who = format!("unit \"{}\"", u.id);
                let Some(p) = list.profile(&u.profile) else {
                    problems.push(Problem::new(
                        who,
                        format!("unknown profile \"{}\" in force \"{}\"", u.profile, list.id),
                    ));
                    continue;
                };
                if let Some(n) = u.figures
                    && n > p.figures
                {
                    problems.push(Problem::new(
                        who.clone(),
                        format!("{n} figures is more than the profile's {}", p.figures),
                    ));
                }
                let ok = match p.arm {
                    crate::vocab::Arm::Artillery { .. } => matches!(
                        u.formation,
                        crate::vocab::Formation::Limbered | crate::vocab::Formation::Unlimbered
                    ),
                    _ => !matches!(
                        u.formation,
                        crate::vocab::Formation::Limbered | crate::vocab::Formation::Unlimbered
                    ),
                };
                if !ok {
                    problems.push(Problem::new(
                        who.clone(),
                        format!("a {} cannot stand in {}", p.name, u.formation.name()),
                    ));
                    continue;
                }
                let figures = u.figures.unwrap_or(p.figures);
                let r = crate::footprint::rect(
                    p.arm,
                    u.formation,
                    figures,
                    sandtable_geometry::Vec2::new(u.position.0, u.position.1),
                    u.facing,
                );
                footprints.push((who, vec![r]));
            }
        }
    }
    problems.extend(check_footprints(
        (s.table.width, s.table.depth),
        &footprints,
    ));
    problems
}
