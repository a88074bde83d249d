#pragma once
// A Bullet soft-rigid world for the peer benchmarks (BulletClothBench.cpp,
// BulletSelfContactBench.cpp): the collision configuration, dispatcher, broadphase and
// constraint solver it needs, owned together, with the soft-body world info set up.
#include <memory>

#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <btBulletDynamicsCommon.h>

namespace hg::bench {

struct BulletSoftWorld {
  explicit BulletSoftWorld(const btVector3& gravity)
      : collisionConfig(std::make_unique<btSoftBodyRigidBodyCollisionConfiguration>()),
        dispatcher(std::make_unique<btCollisionDispatcher>(collisionConfig.get())),
        broadphase(std::make_unique<btDbvtBroadphase>()),
        constraintSolver(std::make_unique<btSequentialImpulseConstraintSolver>()),
        world(std::make_unique<btSoftRigidDynamicsWorld>(dispatcher.get(), broadphase.get(), constraintSolver.get(),
                                                         collisionConfig.get())) {
    world->setGravity(gravity);
    btSoftBodyWorldInfo& info = world->getWorldInfo();
    info.m_gravity = gravity;
    info.m_broadphase = broadphase.get();
    info.m_dispatcher = dispatcher.get();
    info.m_sparsesdf.Initialize();
  }
  btSoftBodyWorldInfo& info() { return world->getWorldInfo(); }

  std::unique_ptr<btSoftBodyRigidBodyCollisionConfiguration> collisionConfig;
  std::unique_ptr<btCollisionDispatcher> dispatcher;
  std::unique_ptr<btDbvtBroadphase> broadphase;
  std::unique_ptr<btSequentialImpulseConstraintSolver> constraintSolver;
  std::unique_ptr<btSoftRigidDynamicsWorld> world;
};

}  // namespace hg::bench
