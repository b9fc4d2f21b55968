#!/usr/bin/env python3
"""Generate gd_doctor's fixture trees (tests/fixtures/doctor/<name>/) with the
real kernel layout: /sys/devices/pciDDDD:BB/<bridges>/<device> directories,
/sys/bus/pci/devices and /sys/class/* symlinks, binary PCI config space,
/proc and /dev files. Run it after changing a tree; the output is committed.
"""
import os, shutil, struct, sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'doctor')

def put(root, rel, text):
    p = os.path.join(root, rel.lstrip('/'))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    mode = 'wb' if isinstance(text, bytes) else 'w'
    with open(p, mode) as f:
        f.write(text)

def link(root, rel, target):
    p = os.path.join(root, rel.lstrip('/'))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    os.symlink(target, p)

def rel_to(root, frm, to):
    """relative symlink target from the directory of frm to to (both live paths)"""
    return os.path.relpath(to, os.path.dirname(frm))

def config_space(vendor, device, acs_ctrl=None, size=4096):
    cfg = bytearray(4096)
    struct.pack_into('<HH', cfg, 0, vendor, device)
    # one harmless extended capability first (AER, id 1), ACS after it when asked
    nxt = 0x148 if acs_ctrl is not None else 0
    struct.pack_into('<I', cfg, 0x100, 0x0001 | (1 << 16) | (nxt << 20))
    if acs_ctrl is not None:
        struct.pack_into('<I', cfg, 0x148, 0x000d | (1 << 16))
        struct.pack_into('<HH', cfg, 0x14c, 0x005f, acs_ctrl)
    return bytes(cfg[:size])

class Machine:
    def __init__(self, name):
        self.root = os.path.join(OUT, name)
        shutil.rmtree(self.root, ignore_errors=True)
        os.makedirs(self.root)
        self.cfg_size = 4096

    def file(self, rel, text):
        put(self.root, rel, text)

    def pci(self, chain, vendor, device, cls, speed=('16.0 GT/s PCIe', '16.0 GT/s PCIe'),
            width=(16, 16), numa=0, acs=None, resources=None, driver=None):
        """chain: 'pci0000:15/0000:15:01.0/...' ending with this device"""
        bdf = chain.split('/')[-1]
        d = '/sys/devices/' + chain
        self.file(d + '/vendor', '0x%04x\n' % vendor)
        self.file(d + '/device', '0x%04x\n' % device)
        self.file(d + '/class', '0x%06x\n' % cls)
        self.file(d + '/numa_node', '%d\n' % numa)
        self.file(d + '/current_link_speed', speed[0] + '\n')
        self.file(d + '/max_link_speed', speed[1] + '\n')
        self.file(d + '/current_link_width', '%d\n' % width[0])
        self.file(d + '/max_link_width', '%d\n' % width[1])
        self.file(d + '/config', config_space(vendor, device, acs, self.cfg_size))
        res = resources or []
        lines = ['0x%016x 0x%016x 0x%016x' % r for r in res]
        lines += ['0x0000000000000000 0x0000000000000000 0x0000000000000000'] * (13 - len(res))
        self.file(d + '/resource', '\n'.join(lines) + '\n')
        link(self.root, '/sys/bus/pci/devices/' + bdf, rel_to(self.root, '/sys/bus/pci/devices/' + bdf, d))
        if driver:
            # git keeps no empty directory: the driver's files as the kernel has them
            for f in ('bind', 'unbind', 'uevent'):
                self.file('/sys/bus/pci/drivers/%s/%s' % (driver, f), '')
            link(self.root, d + '/driver', rel_to(self.root, d + '/driver', '/sys/bus/pci/drivers/' + driver))
        return d

    def bridge(self, chain, **kw):
        return self.pci(chain, 0x10b5, 0xc010, 0x060400, **kw)

    def gpu(self, chain, **kw):
        # BAR0 16 MiB registers, BAR1 128 GiB aperture (64-bit), BAR3 32 MiB
        kw.setdefault('resources', [(0xe2000000, 0xe2ffffff, 0x40200),
                                    (0x20000000000, 0x21fffffffff, 0x14220c),
                                    (0, 0, 0),
                                    (0x22000000000, 0x22001ffffff, 0x14220c)])
        return self.pci(chain, 0x10de, 0x2330, 0x030200, driver='nvidia', **kw)

    def nic(self, chain, ibdev, ports, ids=(0x15b3, 0x1021), driver='mlx5_core', **kw):
        kw.setdefault('resources', [(0x38000000000, 0x38001ffffff, 0x14220c)])
        d = self.pci(chain, ids[0], ids[1], 0x020000, driver=driver, **kw)
        ib = d + '/infiniband/' + ibdev
        link(self.root, '/sys/class/infiniband/' + ibdev, rel_to(self.root, '/sys/class/infiniband/' + ibdev, ib))
        # the kernel writes the link up to the common ancestor and down again
        link(self.root, ib + '/device', '../../../' + chain.split('/')[-1])
        self.file(ib + '/node_type', '1: CA\n')
        for num, p in ports.items():
            pd = '%s/ports/%d' % (ib, num)
            self.file(pd + '/state', p.get('state', '4: ACTIVE') + '\n')
            self.file(pd + '/phys_state', p.get('phys_state', '5: LinkUp') + '\n')
            self.file(pd + '/rate', p.get('rate', '200 Gb/sec (4X HDR)') + '\n')
            self.file(pd + '/link_layer', p.get('link_layer', 'Ethernet') + '\n')
            for i, (gid, typ, ndev) in enumerate(p.get('gids', [])):
                self.file('%s/gids/%d' % (pd, i), gid + '\n')
                if typ:
                    self.file('%s/gid_attrs/types/%d' % (pd, i), typ + '\n')
                    self.file('%s/gid_attrs/ndevs/%d' % (pd, i), ndev + '\n')
            # unused table entries: zero GID, attribute files unreadable (absent here)
            n = len(p.get('gids', []))
            self.file('%s/gids/%d' % (pd, n), '0000:0000:0000:0000:0000:0000:0000:0000\n')
        return d

    def netdev(self, name, mtu, parent=None, speed=None, bond=None, mii='up', slaves=None, mode=None):
        d = (parent + '/net/' + name) if parent else '/sys/devices/virtual/net/' + name
        link(self.root, '/sys/class/net/' + name, rel_to(self.root, '/sys/class/net/' + name, d))
        self.file(d + '/mtu', '%d\n' % mtu)
        self.file(d + '/operstate', ('up' if mii == 'up' else 'down') + '\n')
        if speed is not None:
            self.file(d + '/speed', '%d\n' % speed)
        if bond:
            self.file(d + '/bonding_slave/mii_status', mii + '\n')
        if slaves is not None:
            self.file(d + '/bonding/slaves', ' '.join(slaves) + '\n')
            self.file(d + '/bonding/mode', (mode or '802.3ad 4') + '\n')

    def kernel(self, release):
        self.file('/proc/sys/kernel/osrelease', release + '\n')

    def gdrcopy(self, dev_node=True):
        self.file('/sys/module/gdrdrv/initstate', 'live\n')
        self.file('/proc/devices', 'Character devices:\n  1 mem\n  4 tty\n231 infiniband_verbs\n'
                  '510 gdrdrv\n\nBlock devices:\n  8 sd\n259 blkext\n')
        if dev_node:
            self.file('/dev/gdrdrv', '')

    def kallsyms(self, ofed):
        syms = ['ffffffffc0c01000 T ib_register_client\t[ib_core]',
                'ffffffffc0c02000 T ib_alloc_pd_user\t[ib_core]']
        if ofed:
            syms.append('ffffffffc0c03000 T ib_register_peer_memory_client\t[ib_core]')
        self.file('/proc/kallsyms', '\n'.join(syms) + '\n')

    def nvidia(self, version, open_flavour=True, registry='', peermem=None, memory_peers=None):
        if open_flavour:
            line = ('NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  %s  Release Build  '
                    '(dvs-builder@U16-I3-B03-4-3)  Thu Oct 16 12:00:00 UTC 2025' % version)
            taint = 'O'
        else:
            line = 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  %s  Wed Aug 23 01:15:15 UTC 2023' % version
            taint = 'POE'
        self.file('/proc/driver/nvidia/version', line + '\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n')
        self.file('/sys/module/nvidia/version', version + '\n')
        self.file('/sys/module/nvidia/taint', taint + '\n')
        self.file('/sys/module/nvidia/initstate', 'live\n')
        params = ['ResmanDebugLevel: 4294967295', 'EnableStreamMemOPs: %d' % (1 if registry else 0),
                  'EnableResizableBar: 0', 'DmaRemapPeerMmio: 1',
                  'RegistryDwords: "%s"' % registry, 'RegistryDwordsPerDevice: ""', 'RmMsg: ""']
        self.file('/proc/driver/nvidia/params', '\n'.join(params) + '\n')
        mods = ['nvidia_uvm 1830912 0 - Live 0xffffffffc080c000 (O)',
                'nvidia 14299136 1 nvidia_uvm, Live 0xffffffffc0400000 (%s)' % taint]
        for m in peermem or []:
            mods.insert(0, '%s 16384 0 - Live 0xffffffffc0000000 (O)' % m)
            self.file('/sys/module/%s/initstate' % m, 'live\n')
        mods += ['mlx5_ib 479232 0 - Live 0xffffffffc0e00000', 'ib_uverbs 167936 1 mlx5_ib, Live 0xffffffffc0d00000',
                 'ib_core 438272 2 mlx5_ib,ib_uverbs, Live 0xffffffffc0c00000']
        self.file('/proc/modules', '\n'.join(mods) + '\n')
        if memory_peers is not None:
            # an OFED ib_core with no client registered has an empty directory;
            # git keeps no empty directory, so a placeholder file (ignored by the checks)
            self.file('/sys/kernel/mm/memory_peers/.keep', '')
            for m in memory_peers:
                self.file('/sys/kernel/mm/memory_peers/%s/version' % m, '1.1-0\n')

    def common(self, memlock='unlimited', uverbs=('uverbs0',), iommu=None, cmdline=None):
        lim = memlock if memlock == 'unlimited' else str(memlock)
        self.file('/proc/self/limits',
                  'Limit                     Soft Limit           Hard Limit           Units     \n'
                  'Max open files            1048576              1048576              files     \n'
                  'Max locked memory         %-20s %-20s bytes     \n' % (lim, lim))
        self.file('/proc/cmdline', (cmdline or 'BOOT_IMAGE=/boot/vmlinuz root=/dev/nvme0n1p2 ro quiet') + '\n')
        for u in uverbs:
            self.file('/dev/infiniband/' + u, '')
        if uverbs:
            self.file('/dev/infiniband/rdma_cm', '')
        os.makedirs(os.path.join(self.root, 'sys/class/iommu'), exist_ok=True)
        for unit in (iommu or {}).get('units', []):
            d = '/sys/devices/virtual/iommu/' + unit
            self.file(d + '/intel-iommu/version', '1:0\n')
            link(self.root, '/sys/class/iommu/' + unit, rel_to(self.root, '/sys/class/iommu/' + unit, d))
        for g, (typ, bdfs) in (iommu or {}).get('groups', {}).items():
            self.file('/sys/kernel/iommu_groups/%s/type' % g, typ + '\n')
            for bdf in bdfs:
                real = os.path.realpath(os.path.join(self.root, 'sys/bus/pci/devices', bdf))
                live = '/' + os.path.relpath(real, self.root)
                link(self.root, live + '/iommu_group',
                     rel_to(self.root, live + '/iommu_group', '/sys/kernel/iommu_groups/' + g))

GEN5 = ('32.0 GT/s PCIe', '32.0 GT/s PCIe')
GEN4 = ('16.0 GT/s PCIe', '16.0 GT/s PCIe')
RC = 'pci0000:15/0000:15:01.0'
UP = RC + '/0000:16:00.0'
GPU_CHAIN = UP + '/0000:17:00.0/0000:18:00.0'
NIC_CHAIN = UP + '/0000:17:01.0/0000:19:00.0'
NIC1_CHAIN = UP + '/0000:17:01.0/0000:19:00.1'
GID0 = 'fe80:0000:0000:0000:0e42:a1ff:fee5:6f10'
GID1 = '0000:0000:0000:0000:0000:ffff:0a00:0001'

def roce_gids(ndev, ipv4=True):
    g = [(GID0, 'IB/RoCE v1', ndev), (GID0, 'RoCE v2', ndev)]
    if ipv4:
        g += [(GID1, 'IB/RoCE v1', ndev), (GID1, 'RoCE v2', ndev)]
    return g

def switch_box(m, acs=0x0011, gpu_link=(GEN5, (16, 16)), nic_link=(GEN5, (16, 16)),
               slave1='up', ipv4=True, bond_mtu=9000):
    """one GPU and one dual-port ConnectX in a RoCE LAG under one PCIe switch"""
    m.bridge(RC, speed=GEN5, numa=0)
    m.bridge(UP, speed=GEN5, numa=0, acs=None)
    m.bridge(UP + '/0000:17:00.0', speed=GEN5, numa=0, acs=acs)
    m.bridge(UP + '/0000:17:01.0', speed=GEN5, numa=0, acs=acs)
    m.gpu(GPU_CHAIN, speed=gpu_link[0], width=gpu_link[1], numa=0)
    nic = m.nic(NIC_CHAIN, 'mlx5_bond_0', {1: {'gids': roce_gids('bond0', ipv4)}},
                speed=nic_link[0], width=nic_link[1], numa=0)
    nic1 = m.pci(NIC1_CHAIN, 0x15b3, 0x1021, 0x020000, speed=nic_link[0], width=nic_link[1],
                 numa=0, driver='mlx5_core')
    m.netdev('reth0', bond_mtu, parent=nic, speed=200000, bond=True)
    m.netdev('reth1', bond_mtu, parent=nic1, speed=200000 if slave1 == 'up' else -1, bond=True, mii=slave1)
    m.netdev('bond0', bond_mtu, slaves=['reth0', 'reth1'])

def lossless(m, trust='order pcp dscp', pfc=(3,), ecn=(3,), tclass='Global tclass=106'):
    """Lossless RoCE on the LAG's slaves, written from documented formats (NOT a capture from
    a ConnectX): iproute2's `dcb apptrust show` / `dcb pfc show` text (dcb-apptrust(8),
    dcb-pfc(8)) under gdperf-capture/dcb/IF/ (gd_doctor's DCB reader takes a fixture's
    capture there), mlx5's ECN knobs /sys/class/net/IF/ecn/roce_{np,rp}/enable/PRIO and the
    device's default traffic class /sys/class/infiniband/DEV/tc/PORT/traffic_class."""
    for nd in ('reth0', 'reth1'):
        if trust is not None:
            m.file('/gdperf-capture/dcb/%s/apptrust' % nd, trust + '\n')
        if pfc is not None:
            m.file('/gdperf-capture/dcb/%s/pfc' % nd, 'pfc-cap 8 macsec-bypass off delay 0\nprio-pfc ' +
                   ' '.join('%d:%s' % (p, 'on' if p in pfc else 'off') for p in range(8)) + '\n')
        for side in ('roce_np', 'roce_rp'):
            for p in range(8):
                m.file('/sys/class/net/%s/ecn/%s/enable/%d' % (nd, side, p), '%d\n' % (p in ecn))
    m.file('/sys/class/infiniband/mlx5_bond_0/tc/1/traffic_class', tclass + '\n')

def good():
    m = Machine('good')
    switch_box(m)
    lossless(m)
    m.kernel('6.8.0-48-generic')
    m.nvidia('580.95.05', registry='PeerMappingOverride=1;')
    m.gdrcopy()
    m.common()

def peermem_missing():
    m = Machine('peermem-missing')
    switch_box(m)
    m.kernel('5.15.0-122-generic')
    m.nvidia('535.104.05', open_flavour=False)
    m.kallsyms(ofed=False)
    m.common()

def old_kernel_peermem():
    m = Machine('old-kernel-peermem')
    switch_box(m)
    m.kernel('5.10.0-28-amd64')
    m.nvidia('550.54.15', open_flavour=False, peermem=['nvidia_peermem'], memory_peers=['nv_mem'])
    m.kallsyms(ofed=True)
    m.common()

def peermem_unregistered():
    m = Machine('peermem-unregistered')
    switch_box(m)
    m.kernel('5.4.0-150-generic')
    m.nvidia('535.104.05', open_flavour=False, peermem=['nvidia_peermem', 'nv_peer_mem'], memory_peers=[])
    m.gdrcopy(dev_node=False)
    m.common()

def link_downgraded():
    m = Machine('link-downgraded')
    # NIC trained Gen3 x8 in a Gen5 x16 slot; the idle GPU downshifted to Gen1
    switch_box(m, gpu_link=(('2.5 GT/s PCIe', '32.0 GT/s PCIe'), (16, 16)),
               nic_link=(('8.0 GT/s PCIe', '32.0 GT/s PCIe'), (8, 16)))
    m.kernel('6.8.0-48-generic')
    m.nvidia('580.95.05', registry='PeerMappingOverride=1;')
    m.common()

def acs_on():
    m = Machine('acs-on')
    switch_box(m, acs=0x001d)  # SrcValid ReqRedir CmpltRedir UpstreamFwd
    m.kernel('6.8.0-48-generic')
    m.nvidia('580.95.05', registry='PeerMappingOverride=1;')
    m.common()

def nonroot():
    m = Machine('nonroot')
    m.cfg_size = 64  # the kernel gives unprivileged readers the first 64 bytes
    switch_box(m, acs=0x001d)
    m.kernel('6.8.0-48-generic')
    m.nvidia('580.95.05', registry='PeerMappingOverride=1;')
    m.common()

def bond_slave_down():
    m = Machine('bond-slave-down')
    switch_box(m, slave1='down')
    m.kernel('6.8.0-48-generic')
    m.nvidia('580.95.05', registry='PeerMappingOverride=1;')
    m.common()

def mtu_mismatch():
    """two single-port RoCE NICs at different MTUs; the second also has no IPv4 GID"""
    m = Machine('mtu-mismatch')
    m.bridge(RC, speed=GEN5, numa=0)
    m.bridge(UP, speed=GEN5, numa=0)
    m.bridge(UP + '/0000:17:00.0', speed=GEN5, numa=0, acs=0)
    m.bridge(UP + '/0000:17:01.0', speed=GEN5, numa=0, acs=0)
    m.gpu(GPU_CHAIN, speed=GEN5, numa=0)
    n0 = m.nic(NIC_CHAIN, 'mlx5_0', {1: {'gids': roce_gids('eth2')}}, speed=GEN5, numa=0)
    n1 = m.nic('pci0000:5d/0000:5d:01.0/0000:5e:00.0', 'mlx5_1', {1: {'gids': roce_gids('eth3', ipv4=False)}},
               speed=GEN5, numa=1)
    m.bridge('pci0000:5d/0000:5d:01.0', speed=GEN5, numa=1)
    m.netdev('eth2', 9000, parent=n0, speed=400000)
    m.netdev('eth3', 1500, parent=n1, speed=400000)
    m.kernel('6.8.0-48-generic')
    m.nvidia('580.95.05', registry='PeerMappingOverride=1;')
    m.common(memlock=65536, iommu={'units': ['dmar0', 'dmar1'],
                                   'groups': {'30': ('DMA-FQ', ['0000:18:00.0']),
                                              '31': ('identity', ['0000:19:00.0']),
                                              '32': ('DMA-FQ', ['0000:5e:00.0'])}},
             cmdline='BOOT_IMAGE=/boot/vmlinuz root=/dev/nvme0n1p2 ro intel_iommu=on')

def infiniband_far():
    """an IB NIC on the other socket: SYS path, NUMA mismatch, regkey absent, small BAR1"""
    m = Machine('infiniband-far')
    m.bridge('pci0000:15/0000:15:01.0', speed=GEN5, numa=0)
    m.gpu('pci0000:15/0000:15:01.0/0000:16:00.0', speed=GEN5, numa=0,
          resources=[(0xe2000000, 0xe2ffffff, 0x40200), (0xd0000000, 0xdfffffff, 0x14220c)])
    m.bridge('pci0000:b0/0000:b0:02.0', speed=GEN5, numa=1)
    m.nic('pci0000:b0/0000:b0:02.0/0000:b1:00.0', 'mlx5_0',
          {1: {'link_layer': 'InfiniBand', 'rate': '400 Gb/sec (4X NDR)',
               'gids': [(GID0, None, None)]}}, speed=GEN5, numa=1)
    m.kernel('6.8.0-48-generic')
    m.nvidia('580.95.05')
    m.common(iommu={'units': ['dmar0'], 'groups': {'7': ('identity', ['0000:16:00.0', '0000:b1:00.0'])}},
             cmdline='BOOT_IMAGE=/boot/vmlinuz ro intel_iommu=on iommu=pt')

def gpu_only():
    """the project's GPU machine: one H100 on the root complex, no RDMA device (from a capture)"""
    m = Machine('gpu-only')
    m.gpu('pci0000:00/0000:00:06.0', speed=GEN5, numa=-1,
          resources=[(0x102002000000, 0x102002ffffff, 0x14220c), (0, 0, 0),
                     (0x100000000000, 0x101fffffffff, 0x14220c), (0, 0, 0),
                     (0x102000000000, 0x102001ffffff, 0x14220c)])
    m.kernel('6.18.44-fc-v657-gpu')
    m.nvidia('580.159.04')
    m.common(uverbs=())
    m.file('/dev/infiniband/rdma_cm', '')

def no_gpu():
    m = Machine('no-gpu')
    m.kernel('6.1.0-28-amd64')
    m.common(memlock=8388608, uverbs=())
    os.makedirs(os.path.join(m.root, 'sys/bus/pci/devices'), exist_ok=True)

EFA_GID0 = 'fe80:0000:0000:0000:04a0:cdff:fe2d:0e51'

def efa(name, pci_device, port_state='4: ACTIVE'):
    """an EC2 GPU instance: one H100 and one EFA (SRD, no RC; its address is GID 0, no RoCE types)"""
    m = Machine(name)
    m.bridge(RC, speed=GEN5, numa=0)
    m.bridge(UP, speed=GEN5, numa=0, acs=None)
    m.bridge(UP + '/0000:17:00.0', speed=GEN5, numa=0, acs=0)
    m.bridge(UP + '/0000:17:01.0', speed=GEN5, numa=0, acs=0)
    m.gpu(GPU_CHAIN, speed=GEN5, numa=0)
    m.nic(NIC_CHAIN, 'rdmap25s0', {1: {'gids': [(EFA_GID0, None, None)], 'state': port_state,
                                      'link_layer': 'Unspecified', 'rate': '100 Gb/sec (4X EDR)'}},
          ids=(0x1d0f, pci_device), driver='efa', speed=GEN5, numa=0)
    m.kernel('6.8.0-1015-aws')
    m.nvidia('580.95.05', registry='PeerMappingOverride=1;')
    m.common()

def roce_lossy():
    """the good box with every lossless-RoCE setting wrong: PCP trust, no PFC, ECN off,
    traffic class unset"""
    m = Machine('roce-lossy')
    switch_box(m)
    lossless(m, trust='order pcp', pfc=(), ecn=(), tclass='')
    m.kernel('6.8.0-48-generic')
    m.nvidia('580.95.05', registry='PeerMappingOverride=1;')
    m.gdrcopy()
    m.common()

def roce_no_ecn_tc():
    """DSCP trusted and PFC on priority 3, but ECN off on it (the reaction point on) and a
    traffic class without ECN-capable bits"""
    m = Machine('roce-no-ecn')
    switch_box(m)
    lossless(m, ecn=(), tclass='Global tclass=104')
    for nd in ('reth0', 'reth1'):
        m.file('/sys/class/net/%s/ecn/roce_rp/enable/3' % nd, '1\n')
    m.kernel('6.8.0-48-generic')
    m.nvidia('580.95.05', registry='PeerMappingOverride=1;')
    m.gdrcopy()
    m.common()

def efa_p5():
    efa('efa-p5', 0xefa2)

def efa_p4d_down():
    efa('efa-p4d-down', 0xefa1, port_state='1: DOWN')

ALL = [good, peermem_missing, old_kernel_peermem, peermem_unregistered, link_downgraded, acs_on,
       nonroot, bond_slave_down, mtu_mismatch, infiniband_far, gpu_only, no_gpu, efa_p5, efa_p4d_down,
       roce_lossy, roce_no_ecn_tc]

if __name__ == '__main__':
    for f in ALL:
        f()
    print('wrote', len(ALL), 'trees under', os.path.normpath(OUT))
