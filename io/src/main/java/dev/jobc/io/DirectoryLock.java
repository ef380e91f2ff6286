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
 * lock on a file inside it, which the kernel releases when the process dies. The file is opened
 * without following a symbolic link: a link planted in its place is refused, never followed to
 * create or lock a file elsewhere.
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

  /** The lock file's name is taken by something that is not a plain file (a link, a directory). */
  static final class NotAFile extends IOException {
    private static final long serialVersionUID = 1L;

    NotAFile(Path file) {
      super(file.toString());
    }
  }

  /**
   * As {@link #acquire}, or null when the lock file cannot be created (a read-only directory, say,
   * where no render can be writing either).
   */
  static DirectoryLock tryAcquire(Path file) throws IOException {
    try {
      return acquire(file);
    } catch (java.nio.file.AccessDeniedException | NotAFile e) {
      return null;
    } catch (java.nio.file.FileSystemException e) {
      if (String.valueOf(e.getReason()).contains("Read-only file system")) {
        return null;
      }
      throw e;
    }
  }

  /** Waits until {@code file} is locked by this thread; creates it when needed. */
  static DirectoryLock acquire(Path file) throws IOException {
    // One key per file, whichever link led to it: Java refuses a second lock on a file it holds.
    Path key = file.getParent().toRealPath().resolve(file.getFileName());
    ReentrantLock thread = THREADS.computeIfAbsent(key, f -> new ReentrantLock());
    thread.lock();
    try {
      while (true) {
        FileChannel locked = open(file, StandardOpenOption.CREATE);
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
      check = open(file);
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

  /** {@code file} opened for writing, never through a symbolic link, and only if a plain file. */
  private static FileChannel open(Path file, StandardOpenOption... more) throws IOException {
    java.util.Set<java.nio.file.OpenOption> options = new java.util.HashSet<>();
    options.add(StandardOpenOption.WRITE);
    options.add(java.nio.file.LinkOption.NOFOLLOW_LINKS);
    options.addAll(java.util.List.of(more));
    FileChannel channel;
    try {
      channel = FileChannel.open(file, options);
    } catch (IOException e) {
      // ELOOP for a link (a plain IOException on JDK 17), EISDIR for a directory.
      if (Files.isSymbolicLink(file)
          || Files.isDirectory(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        throw new NotAFile(file);
      }
      throw e;
    }
    if (!Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      channel.close();
      throw new NotAFile(file); // a FIFO or a device: nothing jobc made
    }
    return channel;
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
