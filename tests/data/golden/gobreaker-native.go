// Exported by BreakerLab as gobreaker (Go Settings).
// Not expressible in gobreaker: per-call timeout 800ms (timeout.attempt): not part of this export; run each call under context.WithTimeout
// Not expressible in gobreaker: fallback cache (ttl 60s): application code, serving a cached price younger than 60s

package breakers

import (
	"time"

	"github.com/sony/gobreaker/v2"
)

// PricingSettings returns the sony/gobreaker v2 Settings BreakerLab replayed:
//
//	cb := gobreaker.NewCircuitBreaker[Price](PricingSettings())
//
// The errors IsSuccessful counts as failures and IsExcluded leaves out, as BreakerLab
// replayed them (write the checks for your client's errors):
//
// breakerlab:Failures=timeout,server_error
// breakerlab:Excluded=refused
func PricingSettings() gobreaker.Settings {
	return gobreaker.Settings{
		Name:         "pricing",
		MaxRequests:  3,
		Interval:     10 * time.Second,
		BucketPeriod: 1 * time.Second,
		Timeout:      20 * time.Second,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.Requests >= 20 && float64(c.TotalFailures)/float64(c.Requests) >= 0.5
		},
	}
}
