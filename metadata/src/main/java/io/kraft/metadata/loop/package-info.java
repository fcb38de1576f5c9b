/**
 * What the controller and the metadata loader get time and threads from, injected so that the same code runs on
 * real threads in a node and on one seeded scheduler in a simulation: {@link io.kraft.metadata.loop.Time} (wall-clock
 * and monotonic milliseconds) and {@link io.kraft.metadata.loop.EventLoop} ("run this event", "run this event at
 * time T"), with {@link io.kraft.metadata.loop.SingleThreadEventLoop} as the real loop. The deterministic loop lives
 * with the simulation in the tests.
 */
package io.kraft.metadata.loop;
