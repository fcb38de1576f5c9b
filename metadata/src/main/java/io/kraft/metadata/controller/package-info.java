/**
 * The controller's control managers: single-threaded, with no clocks or threads (time is passed in). Each request
 * method validates against the current metadata and returns a {@link io.kraft.metadata.controller.ControllerResult}
 * of records plus a response or an error; the managers only generate records.
 *
 * <p>One replay path. The managers do not replay records into maps of their own. They read a
 * {@link io.kraft.metadata.controller.SpeculativeMetadata}: the committed image plus a
 * {@link io.kraft.metadata.image.MetadataDelta} of the records this controller generated that have not committed
 * yet, so a record's meaning is the delta's, exactly as on every follower and in the state store. The active
 * controller adds its records to the view as soon as it hands them to Raft, so the next request sees them (two
 * creations of one topic name in a row are caught); when they commit, the view's split into committed and pending
 * moves but the view does not change. What the image cannot answer cheaply (which partitions a broker is in the ISR
 * of, replicas and leaderships per broker, leaderless partitions, colliding topic names, registration offsets) the
 * managers keep as indexes fed by the entity changes the delta reports. Every member keeps its managers in step
 * with the committed log (a standby's indexes hear each committed delta's changes,
 * {@link io.kraft.metadata.controller.ControlManagers#committedChanges}), so becoming active costs nothing however
 * large the image; a member that stops serving with uncommitted records in its view rebuilds its managers from the
 * committed image ({@link io.kraft.metadata.controller.ControlManagers#fromImage}), which drops those records.
 *
 * <p>Event loop. {@link io.kraft.metadata.controller.QuorumController} runs the managers on one injected
 * {@link io.kraft.metadata.loop.EventLoop} with an injected {@link io.kraft.metadata.loop.Time}, as the listener of a
 * {@link io.kraft.raft.RaftClient}: it applies committed batches to the image and the stored state, hands images to
 * the publishers (on their own loop), and on the active controller turns requests into appended records whose futures
 * answer once the records commit and the image holds them. A leader serves from Raft's leader-ready signal for its
 * epoch, when every earlier epoch's record has been applied, so the managers start from the whole log; it stops (and
 * resigns) as soon as its view and the log disagree, and any member that is not serving answers
 * {@link io.kraft.storage.errors.Errors#NOT_CONTROLLER}. Nothing in this package starts a thread or reads a clock of
 * its own, which is what lets the simulation in the tests drive several controllers deterministically.
 */
package io.kraft.metadata.controller;
