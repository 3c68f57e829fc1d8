//! The simulation engine: integer-nanosecond time, the deterministic event queue and named
//! random streams. It knows nothing about networks; `crate::world` drives it.

pub mod heap;
pub mod mrg32k3a;
pub mod ring;
pub mod rng;
pub mod scheduler;
pub mod time;

pub use rng::RandomStream;
pub use scheduler::{Lane, Scheduler};
pub use time::SimTime;
