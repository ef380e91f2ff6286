package dev.jobc.sidecar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;

/**
 * Something a waiting test may care about has happened: a file event in a watched directory, or a
 * request to the stand-in API. Tests wait on this instead of sleeping, so they wake when the
 * sidecar acts rather than on a clock.
 */
final class Changes {
  /** The one signal of this test JVM (test classes run one at a time). */
  static final Changes ALL = new Changes();

  private long count;

  private Changes() {}

  synchronized void signal() {
    count++;
    notifyAll();
  }

  synchronized long count() {
    return count;
  }

  /** Waits until a change after {@code seen}, for at most {@code nanos}. */
  synchronized void awaitAfter(long seen, long nanos) throws InterruptedException {
    long end = System.nanoTime() + nanos;
    while (count == seen) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  /** Signals on every create, modify or delete in {@code dirs} until closed. */
  static AutoCloseable watch(Path... dirs) {
    WatchService service;
    try {
      service = FileSystems.getDefault().newWatchService();
      for (Path dir : dirs) {
        dir.register(
            service,
            StandardWatchEventKinds.ENTRY_CREATE,
            StandardWatchEventKinds.ENTRY_MODIFY,
            StandardWatchEventKinds.ENTRY_DELETE);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread pump =
        new Thread(
            () -> {
              try {
                while (true) {
                  WatchKey key = service.take();
                  key.pollEvents();
                  ALL.signal();
                  key.reset();
                }
              } catch (InterruptedException | ClosedWatchServiceException e) {
                // closed: the test is over
              }
            },
            "test-file-events");
    pump.setDaemon(true);
    pump.start();
    return service::close;
  }
}
