"""vorpal-cluster: Vorpal's long jobs spread over a Ray cluster.

``vorpal-cluster {match,datagen,tb} --address HOST:PORT [--bin-dir DIR] ...`` runs the games of
a ``vorpal-match`` run, ``vorpal-datagen`` shards, or ``vorpal tb generate``'s tables as Ray
tasks; the Rust binaries do all the chess (docs/cluster.md).

Modules, each with one job (imports only go down this list):

- ``errors``: the one exception a command reports as a message.
- ``report``: the report's lines on the real stdout (Ray's notices go to stderr).
- ``binaries``: where the binaries are (or the copies shipped with the job), running them,
  their build id.
- ``tasks``: the Ray remote functions (run a binary in a scratch folder, send files back).
- ``runner``: submits tasks, streams results, resubmits those lost with a node, dedupes.
- ``cluster``: connecting with a timeout, the nodes, the build check on every node.
- ``match_job``, ``datagen_job``, ``tb_job``: the three commands.
- ``cli``: the command line.
"""
