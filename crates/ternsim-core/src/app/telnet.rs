//! ns-2's `Application/Telnet` over a one-way TCP agent (ns-2.35 `apps/telnet.cc`): a timer
//! that, while the application runs, hands the agent one packet (`sendmsg` of the agent's
//! `size_`: one segment) and rearms itself an exponential gap of mean `interval_` later.
//!
//! The gap is ns-2's `Random::exponential() * interval_`, with `Random::exponential()` =
//! −ln U over the default RNG's uniform U (`tools/rng.h`). The timer is drawn when the
//! application starts and again after each packet; a timer that fires after `stop` sends
//! nothing and is not rearmed. `interval_ 0` (ns-2's tcplib telnet distribution) is not
//! modelled: the scenario refuses it.
//!
//! Times are exact doubles, as ns-2's clock adds them (`now + gap`).

/// One Telnet application's timer state.
#[derive(Clone, Debug, PartialEq)]
pub struct Telnet {
    /// Mean gap between packets in seconds (ns-2 `interval_`, > 0).
    interval_s: f64,
    /// Started and not stopped since (ns-2 `running_`).
    running: bool,
    /// When the pending timer fires, in exact seconds (ns-2 `timer_`'s event).
    due: Option<f64>,
}

impl Telnet {
    pub fn new(interval_s: f64) -> Self {
        Telnet {
            interval_s,
            running: false,
            due: None,
        }
    }

    pub fn interval_s(&self) -> f64 {
        self.interval_s
    }

    /// ns-2 `$telnet set interval_ X` during the run: the next gap drawn uses it; the
    /// pending timer keeps its time.
    pub fn set_interval(&mut self, interval_s: f64) {
        self.interval_s = interval_s;
    }

    pub fn is_running(&self) -> bool {
        self.running
    }

    /// The pending timer's time, if one is set.
    pub fn due(&self) -> Option<f64> {
        self.due
    }

    /// The gap an exponential draw with uniform `u` in (0, 1) gives: ns-2's
    /// `Random::exponential() * interval_`.
    pub fn gap(&self, u: f64) -> f64 {
        -u.ln() * self.interval_s
    }

    /// `start` at `now_s` (ns-2 `TelnetApp::start`): running, and the timer set one gap
    /// from now with the draw `u`; returns when it fires. A start while the timer is still
    /// pending keeps that timer (ns-2 would abort on scheduling it twice) and draws nothing:
    /// returns None.
    pub fn start(&mut self, now_s: f64, u: impl FnOnce() -> f64) -> Option<f64> {
        self.running = true;
        if self.due.is_some() {
            return None;
        }
        let at = now_s + self.gap(u());
        self.due = Some(at);
        Some(at)
    }

    /// `stop` (ns-2 `TelnetApp::stop`): no packet from the pending timer nor after it.
    pub fn stop(&mut self) {
        self.running = false;
    }

    /// The timer fired at `now_s`: whether a packet goes to the agent now. The caller hands
    /// it over, then calls [`Telnet::rearm`] (ns-2 sends before it draws the next gap).
    pub fn fire(&mut self, now_s: f64) -> bool {
        debug_assert_eq!(self.due, Some(now_s), "telnet timer off schedule");
        self.due = None;
        self.running
    }

    /// After a packet: the timer set one gap (draw `u`) from `now_s`; returns when it fires.
    pub fn rearm(&mut self, now_s: f64, u: f64) -> f64 {
        let at = now_s + self.gap(u);
        self.due = Some(at);
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gap_is_minus_ln_u_times_the_interval() {
        let t = Telnet::new(0.5);
        // −ln(e^−2) = 2 mean gaps; U = 1/2 gives ln 2 of them.
        assert!((t.gap((-2.0f64).exp()) - 1.0).abs() < 1e-15);
        assert_eq!(t.gap(0.5), std::f64::consts::LN_2 * 0.5);
    }

    #[test]
    fn start_fire_rearm_and_stop_follow_the_timer() {
        let mut t = Telnet::new(0.01);
        // start at 0: one draw, the timer at 0 + gap.
        let first = t.start(0.0, || 0.5).unwrap();
        assert_eq!(first, 0.01 * std::f64::consts::LN_2);
        assert_eq!(t.due(), Some(first));
        // A second start while it is pending draws nothing.
        assert_eq!(t.start(0.001, || panic!("no draw")), None);
        // It fires: one packet, then the next gap from the firing time.
        assert!(t.fire(first));
        assert_eq!(t.due(), None);
        let second = t.rearm(first, 0.25);
        assert_eq!(second, first + 0.01 * 2.0 * std::f64::consts::LN_2);
        // interval_ changed: the pending timer keeps its time, the next gap uses it.
        t.set_interval(1.0);
        assert_eq!(t.due(), Some(second));
        assert!(t.fire(second));
        assert_eq!(t.rearm(second, 0.5), second + std::f64::consts::LN_2);
        // Stopped: the pending timer fires without a packet and stays unarmed.
        t.stop();
        assert!(!t.fire(second + 1.0));
        assert_eq!(t.due(), None);
        // Started again: a fresh draw from the start time.
        assert_eq!(
            t.start(5.0, || 0.25),
            Some(5.0 + 2.0 * std::f64::consts::LN_2)
        );
    }
}
