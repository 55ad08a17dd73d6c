# frozen_string_literal: true

require "fileutils"

# The smallest root that runs a shell: /bin/sh and the libraries ldd names,
# copied into dir, for the chroot: tests.
module MinimalRoot
  def self.fill(dir)
    files = ["/bin/sh"] + `ldd /bin/sh`.scan(%r{(/\S+) \(0x}).flatten
    files.each do |file|
      FileUtils.mkdir_p(File.join(dir, File.dirname(file)))
      FileUtils.cp(File.realpath(file), File.join(dir, file))
    end
  end
end
