// The breaker of the circuit-breaker lesson (source 003): a gRPC client interceptor backed by
// sony/gobreaker v2. Five consecutive infrastructure failures trip it, it stays open 10 s, and
// one half-open trial call decides. Only Unavailable and DeadlineExceeded count as failures;
// business errors (NotFound, InvalidArgument) pass through as results.
//
// Replay any incident with it:
//
//	breakerlab-cli replay inc-2026-0908-pricing --policy resources/configs/lesson-gobreaker.go
package resilience

import (
	"context"
	"errors"
	"time"

	"github.com/sony/gobreaker/v2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// BreakerInterceptor returns a unary client interceptor guarded by one circuit breaker.
func BreakerInterceptor(name string) grpc.UnaryClientInterceptor {
	cb := gobreaker.NewCircuitBreaker[any](gobreaker.Settings{
		Name:        name,
		MaxRequests: 1,                // half-open: one trial call at a time
		Timeout:     10 * time.Second, // open -> half-open cooldown
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.ConsecutiveFailures >= 5
		},
	})

	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
		invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		res, err := cb.Execute(func() (any, error) {
			callErr := invoker(ctx, method, req, reply, cc, opts...)
			if callErr != nil && countsAsFailure(callErr) {
				return nil, callErr
			}
			return callErr, nil
		})
		if err != nil {
			if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
				return status.Errorf(codes.Unavailable, "%s: circuit open, failing fast", name)
			}
			return err
		}
		if businessErr, ok := res.(error); ok {
			return businessErr
		}
		return nil
	}
}

// countsAsFailure reports whether err is an infrastructure failure that counts toward tripping.
func countsAsFailure(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded:
		return true
	default:
		return false
	}
}
