// Exported by BreakerLab as gobreaker (Go Settings).
// Not expressible in gobreaker: sliding count window (last 20 calls): gobreaker's Counts hold every call since the last state change (Interval 0), so ReadyToTrip sees a cumulative rate
// Not expressible in gobreaker: trip check after a success: gobreaker calls ReadyToTrip only when a call fails; BreakerLab also trips when a success leaves the window at the threshold
// Not expressible in gobreaker: early probe on health green (poll 2s): gobreaker has no state-transition API; rebuild the breaker or wrap it
// Not expressible in gobreaker: half-open probe spacing 1s: gobreaker lets the 3 half-open requests through as they arrive
// Not expressible in gobreaker: reopen_on_first_failure: false (the 3 probes judged together): gobreaker re-opens at the first failed probe
// Not expressible in gobreaker: per-call timeout 800ms (timeout.attempt): not a gobreaker setting; run each call under context.WithTimeout(ctx, 800 * time.Millisecond)
// Not expressible in gobreaker: fallback cache (ttl 60s): application code, on gobreaker.ErrOpenState, ErrTooManyRequests or a failed call serve a cached price younger than 60s

package breakers

import (
	"time"

	"github.com/sony/gobreaker/v2"
)

// PricingSettings returns BreakerLab's breaker config as sony/gobreaker v2 Settings:
//
//	cb := gobreaker.NewCircuitBreaker[Price](PricingSettings())
func PricingSettings() gobreaker.Settings {
	return gobreaker.Settings{
		Name:        "pricing",
		MaxRequests: 3,                // half-open probes; closes after as many consecutive successes
		Interval:    0,                // Counts are cleared only on state changes
		Timeout:     20 * time.Second, // open interval
		ReadyToTrip: func(counts gobreaker.Counts) bool {
			// BreakerLab: count window of 20 calls, min_calls 20, trips at failure_rate 50%.
			total := uint64(counts.TotalSuccesses) + uint64(counts.TotalFailures)
			return total >= 20 && uint64(counts.TotalFailures)*100 >= 50*total
		},
		IsSuccessful: func(err error) bool {
			// BreakerLab counts timeout, refused, server_error as failures; client_error counts as a success.
			return err == nil || isBusinessError(err)
		},
	}
}

// isBusinessError reports whether err is a business answer of the dependency (4xx,
// NotFound, InvalidArgument), which BreakerLab does not count as a failure. Replace
// it with your client's check.
func isBusinessError(err error) bool {
	return false
}
