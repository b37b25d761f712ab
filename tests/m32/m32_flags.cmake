# Sets PBCI_M32 to the flags that make gcc build i386 code on this host.
# Debian's gcc-multilib package links /usr/include/asm to the host's asm
# headers, which serve i386 too. Its cross compilers remove that package
# (.ci/run installs gcc-12-multilib instead, for both): then asm/ is looked
# for there last, after every i386 directory.
set(PBCI_M32 -m32)
if(NOT EXISTS /usr/include/asm AND EXISTS /usr/include/x86_64-linux-gnu/asm)
  list(APPEND PBCI_M32 -idirafter /usr/include/x86_64-linux-gnu)
endif()
