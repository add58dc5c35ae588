//! The force builder behind the engine's seam: the army lists' Skirmish Force cards as rows to
//! take, and a draft's FSP, Force Value, loss chart and Reconnaissance Points as it is built,
//! with every limit of the card it breaks named by its rule (BFS-LST-1..3, BFS-VIC-1..3,
//! BFS-SCN-35).

use crate::army_list::{ArmyList, load_army_lists};
use crate::force::{FORCE_FORMAT, ForceFile, Pick};
use crate::force_card::ExtraKind;
use sandtable_engine::prebattle::{CardRow, ForceBuilder, ForceDraft, ForceReport};
use sandtable_engine::{DataDirs, LoadError, data_file};
use std::path::Path;

/// The army lists with a card, read once from the data folder.
pub struct BfsForceBuilder {
    lists: Vec<ArmyList>,
}

pub fn builder(dirs: &DataDirs) -> Box<dyn ForceBuilder> {
    let (good, _) = load_army_lists(&dirs.armies);
    Box::new(BfsForceBuilder {
        lists: good
            .into_iter()
            .map(|(_, l)| l)
            .filter(|l| l.card.is_some())
            .collect(),
    })
}

impl BfsForceBuilder {
    fn list(&self, id: &str) -> Option<&ArmyList> {
        self.lists.iter().find(|l| l.id == id)
    }
}

/// The draft as a force file: each row taken goes where the card keeps it.
pub fn file_of(draft: &ForceDraft, list: &ArmyList) -> ForceFile {
    let card = list.card.as_ref();
    let is_extra = |key: &str| card.is_some_and(|c| c.extra(key).is_some());
    let pick = |(key, bases): &(String, u8)| Pick {
        card: key.clone(),
        bases: *bases,
        name: draft
            .names
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, n)| n.clone()),
    };
    ForceFile {
        format: FORCE_FORMAT,
        name: draft.name.clone(),
        army_list: list.id.clone(),
        units: draft
            .picks
            .iter()
            .filter(|(k, _)| !is_extra(k))
            .map(pick)
            .collect(),
        additional: draft
            .picks
            .iter()
            .filter(|(k, _)| is_extra(k))
            .map(pick)
            .collect(),
        commander_upgrade: draft.upgrade.clone(),
        commander_name: draft.commander_name.clone(),
    }
}

impl ForceBuilder for BfsForceBuilder {
    fn lists(&self) -> Vec<(String, String)> {
        self.lists
            .iter()
            .map(|l| (l.id.clone(), format!("{} ({})", l.name, l.period)))
            .collect()
    }

    fn rows(&self, list: &str) -> Vec<CardRow> {
        let Some(card) = self.list(list).and_then(|l| l.card.as_ref()) else {
            return Vec::new();
        };
        let profile_name = |id: &str| {
            self.list(list)
                .and_then(|l| l.profile(id))
                .map_or_else(|| id.to_string(), |p| p.name.clone())
        };
        let mut out = Vec::new();
        for (i, level) in card.levels.iter().enumerate() {
            for u in &level.units {
                out.push(CardRow {
                    key: u.id.clone(),
                    section: if i == 0 {
                        format!("Core, FSP {}", level.fsp)
                    } else {
                        format!("FSP {}", level.fsp)
                    },
                    name: u.name.clone(),
                    detail: format!(
                        "{}: {} bases{}",
                        profile_name(&u.profile),
                        u.bases,
                        if u.optional_bases > 0 {
                            format!(
                                " + up to {} grey{}",
                                u.optional_bases,
                                if u.optional_bases_per_fsp > 0 {
                                    format!(" ({} for 1 FSP)", u.optional_bases_per_fsp)
                                } else {
                                    " (free)".into()
                                }
                            )
                        } else {
                            String::new()
                        }
                    ),
                    min_bases: u.bases.max(1),
                    max_bases: u.bases + u.optional_bases,
                    required: i == 0 && u.bases > 0,
                });
            }
        }
        for e in &card.additional {
            let (detail, min, max) = match &e.what {
                ExtraKind::Commander { command_points, .. } => {
                    (format!("commander, {command_points} CP"), 0, 0)
                }
                ExtraKind::Unit {
                    profile,
                    min_bases,
                    max_bases,
                } => (
                    format!("{}: {min_bases}–{max_bases} bases", profile_name(profile)),
                    *min_bases,
                    *max_bases,
                ),
            };
            out.push(CardRow {
                key: e.id.clone(),
                section: "Additional".into(),
                name: e.name.clone(),
                detail: format!("{detail}; {} FSP; from the FSP {} level", e.fsp, e.from_fsp),
                min_bases: min,
                max_bases: max,
                required: false,
            });
        }
        out
    }

    fn upgrades(&self, list: &str) -> Vec<(String, String)> {
        self.list(list)
            .and_then(|l| l.card.as_ref())
            .map(|c| {
                c.commander_upgrades
                    .iter()
                    .map(|u| {
                        (
                            u.id.clone(),
                            format!("{}: {} CP for {} FSP", u.name, u.command_points, u.fsp),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn report(&self, draft: &ForceDraft) -> ForceReport {
        let Some(list) = self.list(&draft.list) else {
            return ForceReport {
                problems: vec![format!("no army list \"{}\" with a card", draft.list)],
                ..Default::default()
            };
        };
        let file = file_of(draft, list);
        let pretty = ron::ser::PrettyConfig::new().struct_names(true);
        let text = ron::ser::to_string_pretty(&file, pretty).unwrap_or_default();
        let mut problems: Vec<String> = Vec::new();
        if draft.name.trim().is_empty() {
            problems.push("name: give the force a name".into());
        }
        match file.resolve(list) {
            Ok(f) => {
                let s = &f.summary;
                let lines = vec![
                    format!("Force Strength Points: {} (BFS-LST-1)", s.fsp),
                    format!(
                        "Force Value: {} ({} bases + {} CP) (BFS-VIC-1)",
                        s.force_value, s.bases, s.command_points
                    ),
                    format!(
                        "Losses: none 0 · Minor 1–{} · Acceptable to {} · Heavy to {} · Very heavy to {} · Massacre beyond (BFS-VIC-3)",
                        s.thresholds[0], s.thresholds[1], s.thresholds[2], s.thresholds[3]
                    ),
                    format!(
                        "Reconnaissance Points: {} (BFS-SCN-35)",
                        s.reconnaissance_points
                    ),
                    format!(
                        "{} units, {} commander{}{}{}",
                        f.units.len(),
                        f.commanders.len(),
                        if f.commanders.len() == 1 { "" } else { "s" },
                        if s.small {
                            "; a Small Skirmish Force (BFS-SCN-17)"
                        } else {
                            ""
                        },
                        if s.defensive {
                            "; a Defensive Skirmish Force (BFS-SCN-16)"
                        } else {
                            ""
                        }
                    ),
                ];
                ForceReport {
                    lines,
                    problems,
                    text,
                }
            }
            Err(ps) => {
                problems.extend(
                    ps.into_iter()
                        .map(|p| format!("{}: {}", p.entity, p.message)),
                );
                ForceReport {
                    lines: Vec::new(),
                    problems,
                    text,
                }
            }
        }
    }

    /// The force's units (not its commanders: a side has its own) with their army list, as the
    /// table editor adds them (`ForceUnits`).
    fn scenario_units(&self, draft: &ForceDraft) -> Result<String, String> {
        let list = self
            .list(&draft.list)
            .ok_or_else(|| format!("no army list \"{}\" with a card", draft.list))?;
        let force = file_of(draft, list).resolve(list).map_err(|ps| {
            ps.iter()
                .map(|p| format!("{}: {}", p.entity, p.message))
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        let mut units = force.to_spec(list).units;
        for u in &mut units {
            if let Some(p) = list.profile(&u.profile) {
                u.formation = super::deployment::formation_of(p, u.bases);
            }
        }
        let pretty = ron::ser::PrettyConfig::new().struct_names(true);
        let out = crate::scenario_spec::ForceUnits {
            army_list: list.id.clone(),
            units,
        };
        ron::ser::to_string_pretty(&out, pretty).map_err(|e| e.to_string())
    }

    fn read(&self, path: &Path, text: &str) -> Result<ForceDraft, LoadError> {
        let file: ForceFile = data_file::parse_ron(path, text)?;
        Ok(ForceDraft {
            list: file.army_list.clone(),
            name: file.name.clone(),
            picks: file
                .units
                .iter()
                .chain(&file.additional)
                .map(|p| (p.card.clone(), p.bases))
                .collect(),
            upgrade: file.commander_upgrade.clone(),
            commander_name: file.commander_name.clone(),
            names: file
                .units
                .iter()
                .chain(&file.additional)
                .filter_map(|p| Some((p.card.clone(), p.name.clone()?)))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> Box<dyn ForceBuilder> {
        builder(&DataDirs::under(
            &std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets"),
        ))
    }

    /// A shipped force read into the builder reports the same values as the file, and writes
    /// a file that reads back to the same draft.
    #[test]
    fn bfs_lst_3_builder_round_trip() {
        let b = shipped();
        assert!(
            b.lists()
                .iter()
                .any(|(id, _)| id == "polish-lithuanian-1655")
        );
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../assets/forces/polish-border-patrol.ron");
        let text = std::fs::read_to_string(&path).unwrap();
        let draft = b.read(&path, &text).unwrap();
        let report = b.report(&draft);
        assert!(report.problems.is_empty(), "{:?}", report.problems);
        assert!(
            report.lines[0].contains("Force Strength Points: 7"),
            "{:?}",
            report.lines
        );
        assert!(report.lines[1].contains("Force Value: 16"));
        let again = b.read(&path, &report.text).unwrap();
        assert_eq!(again, draft);
        // Dropping a core unit is refused with the rule.
        let mut broken = draft.clone();
        broken.picks.retain(|(k, _)| k != "haiduks");
        let r = b.report(&broken);
        assert!(
            r.problems.iter().any(|p| p.contains("BFS-LST-3")),
            "{:?}",
            r.problems
        );
        // Names given in the file survive a round trip.
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../assets/forces/polish-sosinski-banners.ron");
        let text = std::fs::read_to_string(&path).unwrap();
        let named = b.read(&path, &text).unwrap();
        assert_eq!(named.commander_name.as_deref(), Some("Col. Sosiński"));
        assert_eq!(b.read(&path, &b.report(&named).text).unwrap(), named);
        // Rows name their section and bases.
        let rows = b.rows("polish-lithuanian-1655");
        let core = rows.iter().find(|r| r.key == "haiduks").unwrap();
        assert!(core.required && core.section.starts_with("Core"));
        let wagons = rows.iter().find(|r| r.key == "wagons").unwrap();
        assert_eq!((wagons.min_bases, wagons.max_bases), (1, 2));
    }
}
