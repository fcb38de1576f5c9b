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
 *
 * <p>Event loop. {@link io.kraft.metadata.controller.QuorumController} runs the managers on one thread as the
 * Raft listener: it applies committed batches to the image and the RocksDB state store, publishes them, and on
 * the active controller turns requests into appended records whose futures answer once the records commit and
 * the image holds them. A new leader serves only after its high watermark passes its log end at election, so
 * no earlier epoch's record can still arrive and conflict with the rebuilt managers; any member that is not
 * serving answers {@link io.kraft.storage.errors.Errors#NOT_CONTROLLER}.
 */
package io.kraft.metadata.controller;
