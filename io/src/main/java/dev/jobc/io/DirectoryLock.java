package dev.jobc.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Exclusive use of one output directory by one thread of one process, through an operating-system
 * lock on a file next to it, which the kernel releases when the process dies.
 *
 * <p>The lock file exists only while it is held: the holder deletes it before releasing it, so no
 * file is left for users to ignore. A process that was waiting may then hold a lock on the deleted
 * file, so after locking it checks that the path still names the file it locked, and starts over if
 * not. A process killed while holding the lock leaves the file behind; the next holder reuses and
 * deletes it.
 */
final class DirectoryLock implements AutoCloseable {
  /** Locks are per process; threads of this one take turns here first. */
  private static final ConcurrentMap<Path, ReentrantLock> THREADS = new ConcurrentHashMap<>();

  private final Path file;
  private final ReentrantLock thread;
  private final FileChannel locked;
  private final FileChannel check;

  private DirectoryLock(Path file, ReentrantLock thread, FileChannel locked, FileChannel check) {
    this.file = file;
    this.thread = thread;
    this.locked = locked;
    this.check = check;
  }

  /** Waits until {@code file} is locked by this thread; creates it when needed. */
  static DirectoryLock acquire(Path file) throws IOException {
    // One key per file, whichever link led to it: Java refuses a second lock on a file it holds.
    Path key = file.getParent().toRealPath().resolve(file.getFileName());
    ReentrantLock thread = THREADS.computeIfAbsent(key, f -> new ReentrantLock());
    thread.lock();
    try {
      while (true) {
        FileChannel locked =
            FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
          locked.lock();
          FileChannel check = sameFile(file);
          if (check != null) {
            return new DirectoryLock(file, thread, locked, check);
          }
        } catch (IOException | RuntimeException e) {
          locked.close();
          throw e;
        }
        locked.close();
      }
    } catch (IOException | RuntimeException e) {
      thread.unlock();
      throw e;
    }
  }

  /**
   * A second channel on {@code file} when the path still names the file this thread has locked, or
   * null. Java reports a lock request that overlaps one its own process holds on the same file
   * (whatever the channel); that is the test. The channel stays open until {@link #close}: on
   * POSIX, closing any descriptor of a file drops the process's locks on it.
   */
  private static FileChannel sameFile(Path file) throws IOException {
    FileChannel check;
    try {
      check = FileChannel.open(file, StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      return null; // deleted by the holder this thread waited for
    }
    try {
      FileLock other = check.tryLock();
      // Locked, or held by another process: either way a different file now has this name.
      if (other != null) {
        other.release();
      }
      check.close();
      return null;
    } catch (OverlappingFileLockException e) {
      return check;
    } catch (IOException | RuntimeException e) {
      check.close();
      throw e;
    }
  }

  /** Deletes the lock file, then releases the lock. */
  @Override
  public void close() throws IOException {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // The work is done; a lock file left behind is reused and deleted by the next holder.
    } finally {
      try {
        check.close();
        locked.close();
      } finally {
        thread.unlock();
      }
    }
  }
}
