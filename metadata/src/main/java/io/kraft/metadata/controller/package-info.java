/**
 * The controller's control managers: pure, single-threaded state machines with no clocks or threads
 * (time is passed in). Each request method validates against the manager's current state and returns
 * a {@link io.kraft.metadata.controller.ControllerResult} of records plus a response or an error; only
 * {@code replay(record)} changes state, so the active controller and standby controllers share one path.
 *
 * <p>In-flight state. Managers hold one view: the committed records plus, on the active controller, the
 * records it generated and appended but that have not committed yet (the in-flight overlay). The
 * active controller replays its own records as soon as Raft accepts them, so the next request sees them
 * (two creations of one topic name in a row are caught). Standbys replay only committed records. On
 * leadership loss the controller discards its managers and rebuilds them from the last committed
 * {@link io.kraft.metadata.image.MetadataImage} with {@link io.kraft.metadata.controller.ControlManagers#fromImage}:
 * this drops the overlay without timeline data structures, at the cost of a rebuild per leadership change.
 */
package io.kraft.metadata.controller;
