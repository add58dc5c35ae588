//! The table view: which part of the table is on screen, and at what zoom.
//!
//! `TableView` is the single source of the world↔screen mapping. The camera follows it, and every
//! input system converts the cursor through it, so the mapping is testable without a window.

use bevy::prelude::*;
use sandtable_geometry::Vec2 as GVec2;

/// Screen pixels are logical pixels with the origin at the window's top-left, y down.
/// World (table) coordinates are centimetres with y pointing north (up on screen).
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct TableView {
    /// World point shown at the middle of the window.
    pub center: Vec2,
    /// Zoom: logical pixels per centimetre.
    pub px_per_cm: f32,
    /// Window size in logical pixels.
    pub window: Vec2,
}

impl Default for TableView {
    fn default() -> Self {
        Self {
            center: Vec2::new(60.0, 60.0),
            px_per_cm: 6.0,
            window: Vec2::new(1280.0, 800.0),
        }
    }
}

/// Zoom limits, px per cm: from a whole 10 m table on screen to a single base filling it.
pub const MIN_PX_PER_CM: f32 = 0.5;
pub const MAX_PX_PER_CM: f32 = 120.0;

/// The part of the window the table may use when fitting it: the window minus the panels.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct TableArea {
    /// Top-left corner, logical px.
    pub min: Vec2,
    /// Bottom-right corner, logical px.
    pub max: Vec2,
    /// False until the UI has laid out its panels once.
    pub measured: bool,
}

impl TableView {
    pub fn screen_to_world(&self, p: Vec2) -> Vec2 {
        let d = p - self.window * 0.5;
        Vec2::new(
            self.center.x + d.x / self.px_per_cm,
            self.center.y - d.y / self.px_per_cm,
        )
    }

    pub fn world_to_screen(&self, w: Vec2) -> Vec2 {
        let d = (w - self.center) * self.px_per_cm;
        self.window * 0.5 + Vec2::new(d.x, -d.y)
    }

    /// Zooms by `factor`, keeping the world point under `screen` where it is.
    pub fn zoom_about(&mut self, screen: Vec2, factor: f32) {
        if !factor.is_finite() || factor <= 0.0 {
            return;
        }
        let anchor = self.screen_to_world(screen);
        self.px_per_cm = (self.px_per_cm * factor).clamp(MIN_PX_PER_CM, MAX_PX_PER_CM);
        let moved = self.screen_to_world(screen);
        self.center += anchor - moved;
    }

    /// Moves the view so that the table follows a cursor drag of `delta` screen pixels.
    pub fn pan_by_screen(&mut self, delta: Vec2) {
        self.center -= Vec2::new(delta.x, -delta.y) / self.px_per_cm;
    }

    /// Shows the whole table inside `area` with `margin` pixels around it.
    pub fn fit(&mut self, table: Vec2, area: TableArea, margin: f32) {
        let size = (area.max - area.min - Vec2::splat(2.0 * margin)).max(Vec2::splat(10.0));
        self.px_per_cm = (size.x / table.x)
            .min(size.y / table.y)
            .clamp(MIN_PX_PER_CM, MAX_PX_PER_CM);
        let area_center = (area.min + area.max) * 0.5;
        let offset = area_center - self.window * 0.5;
        self.center = table * 0.5 - Vec2::new(offset.x, -offset.y) / self.px_per_cm;
    }
}

/// Bevy's Vec2 (glam 0.32) to the geometry crate's (glam 0.33): the two glam versions meet here.
pub fn to_geo(v: Vec2) -> GVec2 {
    GVec2::new(v.x, v.y)
}

/// The geometry crate's Vec2 to Bevy's.
pub fn from_geo(v: GVec2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// Keeps the camera on the view.
pub fn sync_camera(
    view: Res<TableView>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    if !view.is_changed() {
        return;
    }
    for (mut t, mut p) in &mut cameras {
        t.translation.x = view.center.x;
        t.translation.y = view.center.y;
        if let Projection::Orthographic(o) = p.as_mut() {
            o.scale = 1.0 / view.px_per_cm;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_world_round_trip() {
        let v = TableView {
            center: Vec2::new(60.0, 60.0),
            px_per_cm: 5.0,
            window: Vec2::new(1000.0, 800.0),
        };
        assert_eq!(
            v.screen_to_world(Vec2::new(500.0, 400.0)),
            Vec2::new(60.0, 60.0)
        );
        // 50 px right and 50 px down is 10 cm east and 10 cm south.
        assert_eq!(
            v.screen_to_world(Vec2::new(550.0, 450.0)),
            Vec2::new(70.0, 50.0)
        );
        let w = Vec2::new(12.5, 99.0);
        assert!((v.screen_to_world(v.world_to_screen(w)) - w).length() < 1e-4);
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut v = TableView {
            center: Vec2::new(60.0, 60.0),
            px_per_cm: 5.0,
            window: Vec2::new(1000.0, 800.0),
        };
        let cursor = Vec2::new(800.0, 100.0);
        let before = v.screen_to_world(cursor);
        v.zoom_about(cursor, 2.0);
        assert_eq!(v.px_per_cm, 10.0);
        assert!((v.screen_to_world(cursor) - before).length() < 1e-4);
    }

    #[test]
    fn fit_centres_the_table_in_the_area() {
        let mut v = TableView {
            window: Vec2::new(1280.0, 800.0),
            ..default()
        };
        let area = TableArea {
            min: Vec2::new(0.0, 40.0),
            max: Vec2::new(960.0, 800.0),
            measured: true,
        };
        v.fit(Vec2::new(120.0, 120.0), area, 20.0);
        assert!((v.px_per_cm - 720.0 / 120.0).abs() < 1e-5);
        let c = v.world_to_screen(Vec2::new(60.0, 60.0));
        assert!((c - Vec2::new(480.0, 420.0)).length() < 1e-3);
    }

    #[test]
    fn pan_follows_the_drag() {
        let mut v = TableView::default();
        let p = Vec2::new(300.0, 300.0);
        let w = v.screen_to_world(p);
        v.pan_by_screen(Vec2::new(30.0, -12.0));
        assert!((v.world_to_screen(w) - (p + Vec2::new(30.0, -12.0))).length() < 1e-3);
    }
}
