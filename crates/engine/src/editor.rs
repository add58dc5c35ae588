//! The table editor's seam: a scenario of any ruleset edited piece by piece (terrain, deployment
//! areas, objectives, where the units and commanders stand), every edit checked by the ruleset's
//! own loader before it is taken, so that a file the editor writes always loads. Lessons and
//! scripts are part of the scenario and are kept as they are.

use crate::dynamic::{AnyGame, TypedGame};
use crate::files::{DataDirs, Files};
use crate::presenter::Present;
use crate::problem::LoadError;
use crate::scenario::{RulesSection, Scenario, ShapeSpec, TerrainSpec};
use crate::scenario_script::ObjectiveSpec;
use crate::session::Session;
use crate::teach::Teach;
use sandtable_geometry::Vec2;
use std::path::{Path, PathBuf};

/// Most edits kept for undo.
pub const UNDO_DEPTH: usize = 200;

/// One change to the table.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    AddTerrain(TerrainSpec),
    SetTerrain(usize, TerrainSpec),
    RemoveTerrain(usize),
    /// A side's deployment area, or none.
    SetDeployment(usize, Option<ShapeSpec>),
    AddObjective(ObjectiveSpec),
    SetObjective(usize, ObjectiveSpec),
    RemoveObjective(usize),
    /// Where a unit or commander stands and faces (a unit by the middle of its front edge).
    PlacePiece {
        id: String,
        position: (f32, f32),
        facing: f32,
    },
    RemovePiece(String),
    SetName(String),
    SetTurnLimit(u32),
    /// Units given as the section's own text, added to a side in a row from `anchor`.
    AddUnits {
        side: usize,
        text: String,
        anchor: (f32, f32),
        facing: f32,
    },
}

/// A unit or commander as the editor shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct EditorPiece {
    pub id: String,
    pub label: String,
    pub side: usize,
    pub leader: bool,
    pub position: (f32, f32),
    pub facing: f32,
    /// Its bases' corners, as the battle would deploy them.
    pub bases: Vec<[Vec2; 4]>,
}

/// A scenario being edited, of any ruleset.
pub trait AnyEditor: Send + Sync {
    fn scenario_name(&self) -> &str;
    /// Width and depth, cm.
    fn table(&self) -> (f32, f32);
    fn turn_limit(&self) -> u32;
    fn terrain(&self) -> &[TerrainSpec];
    fn objectives(&self) -> &[ObjectiveSpec];
    /// Each side's name, own table edge and deployment area.
    fn sides(&self) -> Vec<(String, crate::scenario::TableEdge, Option<ShapeSpec>)>;
    fn pieces(&self) -> &[EditorPiece];
    /// Applies an edit if the ruleset's loader accepts the result; else its problems, and
    /// nothing changes.
    fn apply(&mut self, edit: Edit) -> Result<(), Vec<String>>;
    fn undo(&mut self) -> bool;
    fn redo(&mut self) -> bool;
    /// Ends a group of edits: the next edit is a new undo step even if it changes the same
    /// thing (a drag released, a save, a refused edit).
    fn end_group(&mut self);
    fn can_undo(&self) -> bool;
    fn can_redo(&self) -> bool;
    /// The scenario as file text.
    fn text(&self) -> String;
    /// Writes the scenario atomically to `path` (which it is then edited as).
    fn save(&mut self, path: &Path) -> Result<(), String>;
    /// Whether anything changed since it was opened or saved.
    fn changed(&self) -> bool;

    /// Adds units (the section's own text) to `side` in a row along its own edge, trying rows
    /// further in until the loader accepts one; the last refusal if none fits.
    fn add_units(&mut self, side: usize, text: &str) -> Result<(), Vec<String>> {
        let (w, d) = self.table();
        let edge = self.sides().get(side).map(|s| s.1);
        let mut last = vec!["no room found".to_string()];
        for depth in [12.0, 24.0, 36.0, 48.0] {
            for x0 in [4.0, w * 0.25, w * 0.5] {
                let (anchor, facing) = match edge {
                    Some(crate::scenario::TableEdge::North) => ((w - x0, d - depth), 180.0),
                    Some(crate::scenario::TableEdge::East) => ((w - depth, x0), 270.0),
                    Some(crate::scenario::TableEdge::West) => ((depth, d - x0), 90.0),
                    _ => ((x0, depth), 0.0),
                };
                match self.apply(Edit::AddUnits {
                    side,
                    text: text.to_string(),
                    anchor,
                    facing,
                }) {
                    Ok(()) => return Ok(()),
                    Err(e) => last = e,
                }
            }
        }
        Err(last)
    }
}

/// Opens a scenario file for editing.
pub type OpenEditor = fn(&Path, &str, &DataDirs) -> Result<Box<dyn AnyEditor>, LoadError>;

/// The editor of one ruleset's scenarios.
pub struct TypedEditor<R: Files + Present + Teach> {
    scenario: Scenario<R::Section>,
    path: PathBuf,
    dirs: DataDirs,
    undo: Vec<Scenario<R::Section>>,
    redo: Vec<Scenario<R::Section>>,
    pieces: Vec<EditorPiece>,
    saved: Scenario<R::Section>,
    /// What the last edit changed: edits in a row to the same thing (a drag, a number being
    /// typed) are one step of undo.
    last_target: Option<String>,
}

/// Opens `path` (whose text is `text`) as ruleset `R`'s scenario for editing.
pub fn open<R: Files + Present + Teach>(
    path: &Path,
    text: &str,
    dirs: &DataDirs,
) -> Result<Box<dyn AnyEditor>, LoadError> {
    let setup = R::load_scenario(path, text, dirs)?;
    let scenario = R::scenario(&setup).clone();
    let pieces = pieces_of::<R>(setup, &scenario).map_err(|why| LoadError::Semantic {
        file: path.to_path_buf(),
        problems: vec![crate::Problem::new("battle", why)],
    })?;
    Ok(Box::new(TypedEditor::<R> {
        saved: scenario.clone(),
        scenario,
        path: path.to_path_buf(),
        dirs: dirs.clone(),
        undo: Vec::new(),
        redo: Vec::new(),
        pieces,
        last_target: None,
    }))
}

/// The pieces as the opening position deploys them (both sides' views together).
fn pieces_of<R: Files + Present + Teach>(
    setup: R::Setup,
    scenario: &Scenario<R::Section>,
) -> Result<Vec<EditorPiece>, String> {
    let info = scenario.info();
    let session = Session::<R>::new(setup, scenario.seed)?;
    let game = TypedGame::new(session, info);
    let mut out: Vec<EditorPiece> = Vec::new();
    for seat in 0..2u8 {
        for p in game.scene(seat).pieces {
            if out.iter().any(|q| q.id == p.key) {
                continue;
            }
            let Some((position, facing)) = scenario.rules.piece_place(&p.key) else {
                continue;
            };
            out.push(EditorPiece {
                id: p.key.clone(),
                label: p.label.clone(),
                side: p.side as usize,
                leader: p.kind == crate::present::PieceKind::Leader,
                position,
                facing,
                bases: p.bases.iter().map(|r| r.ccw_corners()).collect(),
            });
        }
    }
    Ok(out)
}

/// A shape with every point of its outline or path moved by `t`; a rectangle by `rect`, which
/// maps its centre, size and rotation.
fn reshaped(
    shape: &ShapeSpec,
    t: impl Fn(&(f32, f32)) -> (f32, f32),
    rect: impl Fn((f32, f32), (f32, f32), f32) -> ShapeSpec,
) -> ShapeSpec {
    match shape {
        ShapeSpec::Rect {
            center,
            size,
            rotation,
        } => rect(*center, *size, *rotation),
        ShapeSpec::Polygon(ps) => ShapeSpec::Polygon(ps.iter().map(t).collect()),
        ShapeSpec::Strip { points, width } => ShapeSpec::Strip {
            points: points.iter().map(t).collect(),
            width: *width,
        },
    }
}

/// A shape moved by `(dx, dy)`.
pub fn translated(shape: &ShapeSpec, dx: f32, dy: f32) -> ShapeSpec {
    let t = |p: &(f32, f32)| (p.0 + dx, p.1 + dy);
    reshaped(shape, t, |center, size, rotation| ShapeSpec::Rect {
        center: t(&center),
        size,
        rotation,
    })
}

/// A shape turned by `deg` degrees (clockwise, as bearings turn) about its [`middle`]: a
/// rectangle's rotation grows, a polygon's or strip's points turn.
pub fn rotated(shape: &ShapeSpec, deg: f32) -> ShapeSpec {
    let (mx, my) = middle(shape);
    // Bearings turn clockwise: a point at +y (north) goes to +x (east).
    let (s, c) = (-deg).to_radians().sin_cos();
    let t = |p: &(f32, f32)| {
        let (dx, dy) = (p.0 - mx, p.1 - my);
        (mx + dx * c - dy * s, my + dx * s + dy * c)
    };
    reshaped(shape, t, |center, size, rotation| ShapeSpec::Rect {
        center,
        size,
        rotation: (rotation + deg).rem_euclid(360.0),
    })
}

/// A shape grown (or shrunk) by `factor` about its [`middle`]: a rectangle's size, a polygon's
/// outline, a strip's path (its width is set on its own).
pub fn scaled(shape: &ShapeSpec, factor: f32) -> ShapeSpec {
    let (mx, my) = middle(shape);
    let t = |p: &(f32, f32)| (mx + (p.0 - mx) * factor, my + (p.1 - my) * factor);
    reshaped(shape, t, |center, size, rotation| ShapeSpec::Rect {
        center,
        size: (size.0 * factor, size.1 * factor),
        rotation,
    })
}

/// A shape's middle: a rectangle's centre, the mean of a polygon's or strip's points.
pub fn middle(shape: &ShapeSpec) -> (f32, f32) {
    let mean = |ps: &[(f32, f32)]| {
        let n = ps.len().max(1) as f32;
        (
            ps.iter().map(|p| p.0).sum::<f32>() / n,
            ps.iter().map(|p| p.1).sum::<f32>() / n,
        )
    };
    match shape {
        ShapeSpec::Rect { center, .. } => *center,
        ShapeSpec::Polygon(ps) => mean(ps),
        ShapeSpec::Strip { points, .. } => mean(points),
    }
}

fn text_of<S: serde::Serialize>(s: &S) -> String {
    let pretty = ron::ser::PrettyConfig::new().struct_names(true);
    ron::ser::to_string_pretty(s, pretty).unwrap_or_default()
}

impl Edit {
    /// What the edit changes, for grouping edits in a row into one undo step; `None` for edits
    /// that are always a step of their own.
    fn target(&self) -> Option<String> {
        match self {
            Edit::SetTerrain(i, _) => Some(format!("terrain {i}")),
            Edit::SetDeployment(i, _) => Some(format!("deployment {i}")),
            Edit::SetObjective(i, _) => Some(format!("objective {i}")),
            Edit::PlacePiece { id, .. } => Some(format!("piece {id}")),
            Edit::SetName(_) => Some("name".into()),
            Edit::SetTurnLimit(_) => Some("turns".into()),
            _ => None,
        }
    }
}

impl<R: Files + Present + Teach> TypedEditor<R> {
    /// The scenario after `edit`, or why it cannot be made.
    fn edited(&self, edit: Edit) -> Result<Scenario<R::Section>, Vec<String>> {
        let mut s = self.scenario.clone();
        let missing = |what: &str, i: usize| vec![format!("there is no {what} #{}", i + 1)];
        match edit {
            Edit::AddTerrain(t) => s.terrain.push(t),
            Edit::SetTerrain(i, t) => {
                *s.terrain.get_mut(i).ok_or_else(|| missing("terrain", i))? = t
            }
            Edit::RemoveTerrain(i) => {
                if i >= s.terrain.len() {
                    return Err(missing("terrain", i));
                }
                s.terrain.remove(i);
            }
            Edit::SetDeployment(side, shape) => {
                s.sides
                    .get_mut(side)
                    .ok_or_else(|| missing("side", side))?
                    .deployment = shape
            }
            Edit::AddObjective(o) => s.objectives.push(o),
            Edit::SetObjective(i, o) => {
                *s.objectives
                    .get_mut(i)
                    .ok_or_else(|| missing("objective", i))? = o
            }
            Edit::RemoveObjective(i) => {
                if i >= s.objectives.len() {
                    return Err(missing("objective", i));
                }
                s.objectives.remove(i);
            }
            Edit::PlacePiece {
                id,
                position,
                facing,
            } => {
                if !s.rules.place_piece(&id, position, facing) {
                    return Err(vec![format!("\"{id}\" cannot be moved here")]);
                }
            }
            Edit::RemovePiece(id) => {
                if !s.rules.remove_piece(&id) {
                    return Err(vec![format!("\"{id}\" cannot be removed")]);
                }
            }
            Edit::AddUnits {
                side,
                text,
                anchor,
                facing,
            } => s
                .rules
                .add_units(side, &text, anchor, facing)
                .map_err(|e| vec![e])?,
            Edit::SetName(n) => s.name = n,
            Edit::SetTurnLimit(t) => s.turn_limit = t,
        }
        Ok(s)
    }

    /// Checks a scenario with the ruleset's loader; its pieces if it loads.
    fn check(&self, s: &Scenario<R::Section>) -> Result<Vec<EditorPiece>, Vec<String>> {
        let text = text_of(s);
        let setup = R::load_scenario(&self.path, &text, &self.dirs).map_err(|e| e.lines())?;
        pieces_of::<R>(setup, s).map_err(|e| vec![e])
    }

    fn take(&mut self, s: Scenario<R::Section>) -> Result<(), Vec<String>> {
        self.pieces = self.check(&s)?;
        self.scenario = s;
        Ok(())
    }
}

impl<R: Files + Present + Teach> AnyEditor for TypedEditor<R> {
    fn scenario_name(&self) -> &str {
        &self.scenario.name
    }

    fn table(&self) -> (f32, f32) {
        (self.scenario.table.width, self.scenario.table.depth)
    }

    fn turn_limit(&self) -> u32 {
        self.scenario.turn_limit
    }

    fn terrain(&self) -> &[TerrainSpec] {
        &self.scenario.terrain
    }

    fn objectives(&self) -> &[ObjectiveSpec] {
        &self.scenario.objectives
    }

    fn sides(&self) -> Vec<(String, crate::scenario::TableEdge, Option<ShapeSpec>)> {
        self.scenario
            .sides
            .iter()
            .map(|s| (s.name.clone(), s.home_edge, s.deployment.clone()))
            .collect()
    }

    fn pieces(&self) -> &[EditorPiece] {
        &self.pieces
    }

    fn apply(&mut self, edit: Edit) -> Result<(), Vec<String>> {
        let target = edit.target();
        let next = self.edited(edit)?;
        let before = self.scenario.clone();
        self.take(next)?;
        let same = target.is_some() && target == self.last_target && !self.undo.is_empty();
        if !same {
            self.undo.push(before);
            if self.undo.len() > UNDO_DEPTH {
                self.undo.remove(0);
            }
        }
        self.last_target = target;
        self.redo.clear();
        Ok(())
    }

    fn undo(&mut self) -> bool {
        self.last_target = None;
        let Some(prev) = self.undo.pop() else {
            return false;
        };
        let now = self.scenario.clone();
        // Every state on the stack was checked when it was made.
        if self.take(prev.clone()).is_err() {
            self.undo.push(prev);
            return false;
        }
        self.redo.push(now);
        true
    }

    fn redo(&mut self) -> bool {
        self.last_target = None;
        let Some(next) = self.redo.pop() else {
            return false;
        };
        let now = self.scenario.clone();
        if self.take(next.clone()).is_err() {
            self.redo.push(next);
            return false;
        }
        self.undo.push(now);
        true
    }

    fn end_group(&mut self) {
        self.last_target = None;
    }

    fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    fn text(&self) -> String {
        text_of(&self.scenario)
    }

    fn save(&mut self, path: &Path) -> Result<(), String> {
        let text = format!(
            "// Written by Sandtable's table editor; lengths in centimetres.\n{}\n",
            self.text()
        );
        crate::data_file::write_atomic(path, &text)
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        self.path = path.to_path_buf();
        self.saved = self.scenario.clone();
        self.last_target = None;
        Ok(())
    }

    fn changed(&self) -> bool {
        self.scenario != self.saved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f32, f32), b: (f32, f32)) -> bool {
        (a.0 - b.0).abs() < 1e-4 && (a.1 - b.1).abs() < 1e-4
    }

    /// A square turned a quarter clockwise about its middle: the corner to the north goes east.
    #[test]
    fn a_polygon_turns_clockwise_about_its_middle() {
        let square = ShapeSpec::Polygon(vec![(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]);
        let ShapeSpec::Polygon(ps) = rotated(&square, 90.0) else {
            unreachable!()
        };
        // (0, 10), north-west, is now north-east: (10, 10).
        assert!(close(ps[3], (10.0, 10.0)), "{ps:?}");
        assert!(close(ps[0], (0.0, 10.0)), "{ps:?}");
        assert!(close(middle(&ShapeSpec::Polygon(ps)), (5.0, 5.0)));
        let rect = ShapeSpec::Rect {
            center: (5.0, 5.0),
            size: (4.0, 2.0),
            rotation: 300.0,
        };
        assert!(
            matches!(rotated(&rect, 90.0), ShapeSpec::Rect { rotation, .. } if (rotation - 30.0).abs() < 1e-4)
        );
    }

    /// Grown to 150 % about its middle; a strip keeps its width.
    #[test]
    fn a_shape_grows_about_its_middle() {
        let strip = ShapeSpec::Strip {
            points: vec![(0.0, 0.0), (20.0, 0.0)],
            width: 3.0,
        };
        let ShapeSpec::Strip { points, width } = scaled(&strip, 1.5) else {
            unreachable!()
        };
        assert!(close(points[0], (-5.0, 0.0)) && close(points[1], (25.0, 0.0)));
        assert_eq!(width, 3.0);
    }
}
