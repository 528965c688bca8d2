//! CPU time the hypervisor took from this (virtual) machine: the `steal`
//! column of Linux's `/proc/stat`. On a shared host a burst of steal stops
//! every process here, engines and runner alike, for as long as it lasts,
//! and a game at a fast time control is lost on time through no fault of
//! the engine. Time losses carry the steal measured around them, so that a
//! soak can tell the two apart.

/// Milliseconds per tick of `/proc/stat` (`USER_HZ`, 100 on Linux).
const MS_PER_TICK: u64 = 10;

/// Total CPU time stolen from this machine since boot, summed over its
/// CPUs, in milliseconds; `None` where there is no `/proc/stat`.
pub fn steal_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    parse_steal_ms(&stat)
}

/// The steal of the first (`cpu`, all CPUs) line of a `/proc/stat` text.
fn parse_steal_ms(stat: &str) -> Option<u64> {
    let line = stat.lines().next()?;
    let mut fields = line.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    // user nice system idle iowait irq softirq steal
    let steal: u64 = fields.nth(7)?.parse().ok()?;
    Some(steal * MS_PER_TICK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steal_is_the_eighth_number_of_the_cpu_line() {
        let stat =
            "cpu  1438668 245819 136689 348206 3232 0 2279 79784 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n";
        assert_eq!(parse_steal_ms(stat), Some(797_840));
        assert_eq!(parse_steal_ms("cpu  1 2 3\n"), None);
        assert_eq!(parse_steal_ms("intr 1 2 3 4 5 6 7 8 9\n"), None);
        assert_eq!(parse_steal_ms(""), None);
    }

    #[test]
    fn this_machine_reports_a_figure_if_it_is_linux() {
        if cfg!(target_os = "linux") {
            assert!(steal_ms().is_some());
        }
    }
}
